/**
 * The owner token (issue 40), over a real server on port 0 and real HTTP: which routes refuse
 * a request without it, the three ways to carry it, the printed link traded for a cookie, and
 * `serve --token T` end to end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture, startTestServer, type TestServer } from '../helpers/server.js';
import { runCli, spawnCli, waitForOutput } from '../helpers/cli.js';
import { TOKEN_HELP, tokenCookieName } from '../../src/shared/owner-token.js';
import { CLEAR_CONFIRMATION } from '../../src/api/admin-routes.js';

let t: TestServer;
let session: string;

beforeAll(async () => {
  t = await startTestServer();
  expect((await t.ingest(capture('ts-sdk-exercise'))).status).toBe(202);
  session = (await t.api('calls')).calls[0]!.session_id;
});
afterAll(() => t.close());

const bare = (path: string, init: RequestInit = {}): Promise<Response> =>
  fetch(`${t.url}${path}`, { redirect: 'manual', ...init });

describe('without the token', () => {
  it.each([
    ['GET', () => `/api/messages?session=${session}`],
    ['GET', () => '/api/calls'],
    ['GET', () => `/api/sessions/${session}`],
    ['GET', () => '/api/export?format=jsonl'],
    ['GET', () => '/api/stream'],
    ['GET', () => '/metrics'],
  ])('%s %s answers 401 with how to get the link', async (method, path) => {
    const res = await bare(path(), { method });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await res.json()) as { error: string };
    expect(body.error).toContain(TOKEN_HELP);
    expect(body.error).not.toContain(t.token);
  });

  it('POST /api/admin/clear is refused and clears nothing', async () => {
    const res = await bare('/api/admin/clear', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ confirm: CLEAR_CONFIRMATION }),
    });
    expect(res.status).toBe(401);
    expect((await t.api('calls')).calls.length).toBeGreaterThan(0);
  });

  it('PUT /api/settings/retention is refused', async () => {
    const res = await bare('/api/settings/retention', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ maxAgeDays: 1 }),
    });
    expect(res.status).toBe(401);
  });

  it('POST /v1/local/proxy is refused, even with a project key as bearer', async () => {
    const res = await bare('/v1/local/proxy', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.token}` },
      body: '{}',
    });
    // The bearer on this route is the project key, never the token.
    expect(res.status).toBe(401);
  });

  it('GET /api/status answers 200, says it is locked and leaks nothing stored', async () => {
    const res = await bare('/api/status');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.authorised).toBe(false);
    expect(typeof body.version).toBe('string');
    expect(Object.keys(body).sort()).toEqual(['authorised', 'error', 'version']);
    expect(JSON.stringify(body)).not.toContain(t.dbPath);
  });

  it('POST /v1/ingest still works with only the SDK key', async () => {
    expect((await t.ingest(capture('go-style'))).status).toBe(202);
  });

  it('a misdirected ingest is still answered as the hosted API would', async () => {
    const res = await bare('/', { method: 'POST', headers: { authorization: 'Bearer mp_x' } });
    expect(res.status).toBe(404);
  });

  it('the page and its assets are still served, so the UI can say what to do', async () => {
    const res = await bare('/sessions');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('a wrong token is refused the same way', async () => {
    const res = await bare('/api/calls', { headers: { 'x-devtools-token': `${t.token}x` } });
    expect(res.status).toBe(401);
  });
});

describe('with the token', () => {
  it('x-devtools-token header', async () => {
    const res = await bare(`/api/messages?session=${session}`, {
      headers: { 'x-devtools-token': t.token },
    });
    expect(res.status).toBe(200);
  });

  it('authorization: Bearer on /api/*', async () => {
    const res = await bare('/api/calls', { headers: { authorization: `Bearer ${t.token}` } });
    expect(res.status).toBe(200);
  });

  it('the status says authorised and is the full one', async () => {
    const res = await bare('/api/status', { headers: { 'x-devtools-token': t.token } });
    const body = (await res.json()) as { authorised: boolean; dbPath: string };
    expect(body.authorised).toBe(true);
    expect(body.dbPath).toBe(t.dbPath);
  });

  it('/api/stream opens with the header', async () => {
    const controller = new AbortController();
    const res = await bare('/api/stream', {
      headers: { 'x-devtools-token': t.token },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    controller.abort();
  });

  it('the printed link: 303 to the same URL without token, HttpOnly SameSite=Strict cookie', async () => {
    const res = await bare(`/sessions?token=${encodeURIComponent(t.token)}&range=1h`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/sessions?range=1h');
    const cookie = res.headers.get('set-cookie')!;
    const name = tokenCookieName(t.server.info.port);
    expect(cookie).toMatch(new RegExp(`^${name}=`));
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\//);
    expect(res.headers.get('cache-control')).toBe('no-store');
    // The cookie alone opens the API, /api/stream included (the browser's EventSource).
    const pair = cookie.split(';')[0]!;
    expect(
      (await bare(`/api/messages?session=${session}`, { headers: { cookie: pair } })).status,
    ).toBe(200);
    const stream = new AbortController();
    const sse = await bare('/api/stream', { headers: { cookie: pair }, signal: stream.signal });
    expect(sse.status).toBe(200);
    stream.abort();
  });

  it('a wrong link still leaves the address bar, with no cookie', async () => {
    const res = await bare('/?token=nope');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('the redirect never leaves this origin', async () => {
    const res = await bare(`//evil.example/x?token=${t.token}`);
    const location = res.headers.get('location')!;
    expect(location).toMatch(/^\/[^/\\]/);
  });

  it("another port's cookie does not open this one", async () => {
    const other = `${tokenCookieName(t.server.info.port + 1)}=${t.token}`;
    expect((await bare('/api/calls', { headers: { cookie: other } })).status).toBe(401);
  });

  it('the proxy route takes x-devtools-token beside its project key', async () => {
    const res = await bare('/v1/local/proxy', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer px_test',
        'x-devtools-token': t.token,
      },
      body: '{}',
    });
    // Past the door: the body is judged (and refused) on its own merits.
    expect(res.status).toBe(400);
  });
});

describe('serve --token', () => {
  it('serve --token T and x-devtools-token: T work as before; the link is printed', async () => {
    const child = spawnCli(
      ['serve', '--port', '0', '--db', ':memory:', '--token', 'T0k3n-for-test'],
      {
        MCPULSE_DEVTOOLS_TOKEN: undefined,
      },
    );
    try {
      const out = await waitForOutput(child, (o) => /dashboard\s+http:\/\/\S+/.test(o));
      const link = new URL(/dashboard\s+(http:\/\/\S+)/.exec(out)![1]!);
      expect(link.searchParams.get('token')).toBe('T0k3n-for-test');
      expect(out).toMatch(/listening on .* — this machine only; dashboard and API need the token/);
      const base = `http://127.0.0.1:${link.port}`;
      expect((await fetch(`${base}/api/calls`)).status).toBe(401);
      const ok = await fetch(`${base}/api/calls`, {
        headers: { 'x-devtools-token': 'T0k3n-for-test' },
      });
      expect(ok.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });

  it('refuses a token a header or cookie would mangle', async () => {
    const run = await runCli(['serve', '--port', '0', '--db', ':memory:', '--token', 'a b;c']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--token: the token must be printable ASCII/);
  });
});
