/**
 * A POST that is not a valid ingest — wrong path, wrong method, missing key, unparseable body —
 * gets the hosted API's answer and a row on the ingest log with its path, the SDK's user agent
 * and what to change; a flood of identical ones is one row that counts. Real SDK bodies
 * (fixtures/captures) posted to the wrong places, to a real server.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { capture, startTestServer, type CaptureName, type TestServer } from '../helpers/server.js';
import { authedFetch } from '../helpers/token.js';

/**
 * The user agents the SDKs send: Go, Ruby and PHP set their own (transport.go, transport.rb,
 * Transport.php); the TypeScript SDK posts with Node's fetch, which says `node`.
 */
const SDKS: { name: CaptureName; userAgent: string }[] = [
  { name: 'ts-sdk-exercise', userAgent: 'node' },
  { name: 'go-omitted', userAgent: 'mcpulse-go' },
  { name: 'ruby-style', userAgent: 'mcpulse-ruby' },
  { name: 'php-0.1.6', userAgent: 'mcpulse-php' },
];

describe('requests that miss /v1/ingest', () => {
  let t: TestServer;
  beforeEach(async () => {
    t = await startTestServer();
  });
  afterEach(() => t.close());

  const post = (path: string, body: string, userAgent: string, method = 'POST') =>
    authedFetch(`${t.url}${path}`, {
      method,
      headers: {
        authorization: 'Bearer mp_live_wrong_path',
        'content-type': 'application/json',
        'user-agent': userAgent,
      },
      body: method === 'GET' ? undefined : body,
    });

  it.each(SDKS)(
    '$name posted to /v1/ingest/v1/ingest: 404, logged with the path, user agent and the base URL to give',
    async ({ name, userAgent }) => {
      const res = await post('/v1/ingest/v1/ingest', capture(name), userAgent);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'not found: POST /v1/ingest/v1/ingest' });
      const { batches } = await t.api('batches');
      expect(batches).toHaveLength(1);
      const endpoint = t.server.info.endpoint;
      expect(batches[0]).toMatchObject({
        status: 404,
        method: 'POST',
        path: '/v1/ingest/v1/ingest',
        user_agent: userAgent,
        project_id: null,
        accepted: 0,
        repeats: 1,
        hint: `your endpoint option ends in /v1/ingest (the SDK posted to /v1/ingest/v1/ingest): give the base URL ${endpoint} — the SDK adds /v1/ingest itself`,
      });
      // Nothing from it was stored, as production would store nothing.
      expect((await t.api('calls')).calls).toEqual([]);
      expect((await t.api('projects')).projects).toEqual([]);
    },
  );

  it('says what to change for /ingest, /v1/ingest/, /v1/events and a PUT on /v1/ingest', async () => {
    const body = capture('ts-sdk-exercise');
    const cases: [string, string, number, RegExp][] = [
      ['POST', '/ingest', 404, /the route is \/v1\/ingest: give the endpoint option the base URL/],
      ['POST', '/v1/ingest/', 404, /ends in a slash .*without a path or trailing slash/],
      ['POST', '/v1/events', 404, /nothing here takes POST \/v1\/events: MCPulse SDKs post to/],
      ['PUT', '/v1/ingest', 405, /PUT is not an ingest: SDKs POST their batches to \/v1\/ingest/],
      ['GET', '/v1/ingest', 405, /GET is not an ingest/],
    ];
    for (const [method, path, status] of cases) {
      const res = await post(path, body, 'node', method);
      expect(res.status, `${method} ${path}`).toBe(status);
    }
    const { batches } = await t.api('batches');
    expect(batches.map((b) => [b.method, b.path, b.status])).toEqual(
      cases.map(([m, p, s]) => [m, p, s]).reverse(),
    );
    [...batches].reverse().forEach((b, i) => expect(b.hint).toMatch(cases[i]![3]));
    const { misdirected } = await t.api('connection');
    expect(misdirected).toMatchObject({ method: 'GET', path: '/v1/ingest' });
  });

  it('a missing key and an unparseable body stay refusals on the log, with their reasons', async () => {
    expect((await t.ingest(capture('go-omitted'), { key: null })).status).toBe(401);
    const form = await t.ingest('batch=1', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    const { batches } = await t.api('batches');
    expect(batches.map((b) => b.status)).toEqual([400, 401]);
    expect(batches[0]!.error).toContain('body is not valid JSON');
    expect(batches[0]!.hint).toContain("content-type was 'application/x-www-form-urlencoded'");
    expect(batches[1]!.error).toContain('missing or empty bearer key');
  });

  it('collapses a flood of identical refusals into one row that counts them', async () => {
    const body = capture('go-omitted');
    const answers = await Promise.all(
      Array.from({ length: 300 }, () => post('/v1/ingest/v1/ingest', body, 'mcpulse-go')),
    );
    expect(new Set(answers.map((r) => r.status))).toEqual(new Set([404]));
    for (let i = 0; i < 50; i++) expect((await t.ingest(body, { key: null })).status).toBe(401);
    // The counts reach the database within a second.
    await expect
      .poll(async () => (await t.api('batches')).batches.map((b) => [b.status, b.repeats]), {
        timeout: 3000,
      })
      .toEqual([
        [401, 50],
        [404, 300],
      ]);
    const { batches } = await t.api('batches');
    expect(batches[1]!.last_received_ms).toBeGreaterThanOrEqual(batches[1]!.received_ms);
    // A different user agent is a different row.
    await post('/v1/ingest/v1/ingest', body, 'node');
    expect((await t.api('batches')).batches).toHaveLength(3);
  });
});
