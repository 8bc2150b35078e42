import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture, startTestServer, type TestServer } from '../helpers/server.js';
import { connectionOf } from '../../src/store/connection.js';
import { getRemote } from '../../src/api/remote.js';
import { authedFetch, TEST_TOKEN } from '../helpers/token.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** A raw request with a chosen Host/Origin (fetch will not let us forge Host). */
function rawGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: t.server.info.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('loopback, both families', () => {
  it('binds 127.0.0.1 and ::1 on the same port', () => {
    const port = t.server.info.port;
    expect(t.server.info.addresses).toEqual([`127.0.0.1:${port}`, `[::1]:${port}`]);
    expect(t.server.url).toBe(`http://localhost:${port}`);
  });

  it('stores what an SDK pointed at localhost sends over IPv6', async () => {
    const res = await fetch(`http://[::1]:${t.server.info.port}/v1/ingest`, {
      method: 'POST',
      headers: { authorization: 'Bearer mp_live_v6', 'content-type': 'application/json' },
      body: capture('go-style'),
    });
    expect(res.status).toBe(202);
    const calls = await getRemote(
      `http://[::1]:${t.server.info.port}`,
      'calls',
      {
        project: 'mp_live_v6',
      },
      { token: TEST_TOKEN },
    );
    expect(calls.calls.map((c) => c.args_hash)).toEqual([
      '52a4fe5fc814',
      '2432a382194c',
      '44136fa355b3',
    ]);
  });
});

describe('DNS rebinding and cross-site guards', () => {
  it.each(['evil.example', 'evil.example:80', '192.168.1.5', 'localhost.evil.example'])(
    'refuses Host %s',
    async (host) => {
      const res = await rawGet('/api/status', { host });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body).error).toMatch(/is not allowed/);
    },
  );

  it.each(['localhost', `localhost:1`, '127.0.0.1', '[::1]:7857', 'app.localhost'])(
    'allows Host %s',
    async (host) => {
      expect((await rawGet('/api/status', { host })).status).toBe(200);
    },
  );

  it('refuses a foreign Origin (another site or another local port) and cross-site fetch metadata, and sends no CORS headers', async () => {
    const foreign = await rawGet('/api/status', {
      host: 'localhost',
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect(
      (await rawGet('/api/status', { host: 'localhost', 'sec-fetch-site': 'cross-site' })).status,
    ).toBe(403);
    const port = t.server.info.port;
    const otherPort = await rawGet('/api/status', {
      host: 'localhost',
      origin: `http://localhost:${port + 1}`,
    });
    expect(otherPort.status).toBe(403);
    const v6 = await rawGet('/api/status', { host: 'localhost', origin: `http://[::1]:${port}` });
    expect(v6.status).toBe(200);
    const own = await authedFetch(`${t.url}/api/status`, { headers: { origin: t.url } });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the dashboard and the API', () => {
  it('serves the renderer with a strict CSP', async () => {
    const res = await authedFetch(`${t.url}/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/^default-src 'none'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers unknown API routes and bad filters with a JSON error', async () => {
    const missing = await authedFetch(`${t.url}/api/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'no API route /api/nope' });
    const bad = await authedFetch(`${t.url}/api/calls?from=yesterday`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(
      /^from: expected an ISO 8601 time/,
    );
  });

  it('reports its state on /api/status', async () => {
    const status = await t.api('status');
    expect(status.dbPath).toBe(t.dbPath);
    expect(status.port).toBe(t.server.info.port);
    expect(status.counts).toHaveProperty('calls');
  });

  it('never writes the key itself to the database file', async () => {
    const key = 'mp_live_SECRET0123456789abcdefghijklmno';
    expect((await t.ingest(capture('ts-sdk-exercise'), { key })).status).toBe(202);
    connectionOf(t.store).pragma('wal_checkpoint(TRUNCATE)');
    const bytes = readFileSync(t.dbPath).toString('latin1');
    expect(bytes).not.toContain(key);
    expect(bytes).not.toContain('SECRET0123456789');
    expect(bytes).toContain('mp_live_SECR'); // the 12-character prefix the hosted API keeps too
  });
});

describe('live stream', () => {
  it('sends an event for every stored call and rejection', async () => {
    const controller = new AbortController();
    const res = await authedFetch(`${t.url}/api/stream`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const body = JSON.parse(capture('go-style')) as { batch: unknown[] };
    body.batch.push({ v: 2, type: 'call' });
    await t.ingest(body, { key: 'mp_live_stream' });
    let text = '';
    while ((text.match(/event: call/g) ?? []).length < 3 || !text.includes('event: rejection')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    expect(text).toContain('event: batch');
    expect(text).toContain('event: startup');
    expect(text.match(/event: call/g)).toHaveLength(3);
    expect(text).toMatch(
      /event: rejection\ndata: \{.*"reason":"v: Invalid literal value, expected 1"/,
    );
  });
});
