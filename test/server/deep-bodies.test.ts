/**
 * Deep JSON at every write route (issue 40): a body nested 300,000 levels deep (under the 1 MiB
 * a write may send) is answered with a 4xx naming what is wrong, never a 500 — and a content
 * post whose session carries 200,000-deep capabilities is stored and read back with 200s.
 * Before, `PUT /api/settings/retention` with `{"max_calls": [[[…]]]}` answered
 * `500 internal error: Maximum call stack size exceeded` (its reason re-serialised the value).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROXY_CONTENT_PATH } from '../../src/shared/proxy-content.js';
import { startTestServer, TOKEN_HEADERS, type TestServer } from '../helpers/server.js';

const deep = (n: number): string => '['.repeat(n) + '1' + ']'.repeat(n);
const D = 300_000;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** A request to the dashboard with a raw JSON text body (the one place headers are set). */
function send(method: string, path: string, body: string, key?: string): Promise<Response> {
  return fetch(`${t.url}${path}`, {
    method,
    headers: {
      ...TOKEN_HEADERS,
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body,
  });
}

/** A GET of the dashboard (with send, where its headers are set). */
const get = (path: string): Promise<Response> => t.fetch(path);

const WRITES: [method: string, path: string, fields: string[]][] = [
  ['PUT', '/api/settings/retention', ['max_calls', 'max_age_days']],
  ['PUT', '/api/settings/pricing', ['usd_per_million_tokens']],
  ['POST', '/api/admin/clear', ['confirm']],
];

describe('deep JSON at the write routes', () => {
  it('every API write answers a 300,000-deep body or field with a 400 naming it, never a 500', async () => {
    for (const [method, path, fields] of WRITES) {
      for (const body of [deep(D), ...fields.map((f) => `{"${f}":${deep(D)}}`)]) {
        const res = await send(method, path, body);
        const text = await res.text();
        expect(res.status, `${method} ${path} ${body.slice(0, 30)}: ${text.slice(0, 200)}`).toBe(
          400,
        );
        expect(text.length).toBeLessThan(1000);
      }
    }
    // Nothing changed: the settings read back as the defaults.
    const retention = (await (await get('/api/settings/retention')).json()) as {
      max_calls: number;
      defaults: { max_calls: number };
    };
    expect(retention.max_calls).toBe(retention.defaults.max_calls);
  });

  it('a content post with 200,000-deep capabilities and deep messages: stored, refused items logged, read back with 200', async () => {
    const session = 's_deepcaps0001';
    const post =
      `{"v":1,"session_id":"${session}","session":{"protocol_version":null,"transport":"stdio",` +
      `"client":{"name":"c","version":null,"capabilities":{"x":${deep(200_000)}}},` +
      `"server":{"name":"s","version":null,"capabilities":null,"instructions":null}},` +
      `"messages":[${deep(100_000)}]}`;
    const res = await send('POST', PROXY_CONTENT_PATH, post, 'px_deep_caps');
    expect(res.status, await res.text()).toBe(202);
    expect(res.headers.get('x-mcpulse-rejected')).toBe('1');
    for (const path of [
      `/api/sessions/${session}`,
      `/api/messages?session=${session}`,
      '/api/rejections',
      '/api/batches',
      '/api/export?format=jsonl&content=true',
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      await r.arrayBuffer();
    }
    const s = (await (await get(`/api/sessions/${session}`)).json()) as {
      proxy: { client: { capabilities: { x: unknown } } };
    };
    let depth = 0;
    for (let v: unknown = s.proxy.client.capabilities.x; Array.isArray(v); v = v[0]) depth++;
    expect(depth).toBe(200_000);
  });
});
