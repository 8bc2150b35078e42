/**
 * Hostile depth end to end (issue 40): a hand-written MCP server (servers/deep-server.ts)
 * behind the real `proxy`, sending to a real dashboard on port 0 over a real SQLite file. A
 * 10,000-deep answer made `GET /api/calls/:id` answer 500; 200,000-deep arguments carrying a
 * secret-looking key vanished from the message log with nothing recorded. Now the answer is
 * served, the arguments are either stored cut (with their size) or refused on the ingest log
 * with the reason, and nothing in between answers 500.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_BODY_CAP } from '../../src/shared/proxy-content.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { TOKEN_ENV_VARS } from '../helpers/token.js';
import { proxied, until } from './helpers.js';
import { deepArray } from './servers/deep-server.js';

const DEEP_SERVER = [
  process.execPath,
  '--import',
  'tsx',
  join(import.meta.dirname, 'servers', 'deep-server.ts'),
];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** GET `path` on the dashboard (the one place a request is made, so headers go in one line). */
const get = (path: string): Promise<Response> => t.fetch(path);

/** GET `path`, expecting 200, as parsed JSON. */
async function getJson<T>(path: string): Promise<T> {
  const res = await get(path);
  expect(res.status, `${path}: ${res.status}`).toBe(200);
  return (await res.json()) as T;
}

/**
 * One stdio session through the proxy: `initialize`, then each line of `calls` as a
 * `tools/call` request written as raw text (a 200,000-deep value cannot go through
 * JSON.stringify), each waited for before the next. Resolves once the proxy has exited.
 */
async function session(calls: string[], env: NodeJS.ProcessEnv = {}): Promise<void> {
  const [cmd, ...args] = proxied(DEEP_SERVER, t.url);
  const child = spawn(cmd!, args, {
    env: { ...process.env, ...TOKEN_ENV_VARS, ...env },
    stdio: 'pipe',
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const answers = () => out.split('\n').filter((l) => l.trim() !== '').length;
  const exchange = async (line: string, n: number) => {
    child.stdin.write(line + '\n');
    await until(
      async () => answers(),
      (a) => a >= n,
      20_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}; proxy stderr: ${err}`);
    });
  };
  await exchange(
    '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"deep-client","version":"1"}}}',
    1,
  );
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  for (const [i, params] of calls.entries())
    await exchange(
      `{"jsonrpc":"2.0","id":${i + 1},"method":"tools/call","params":${params}}`,
      i + 2,
    );
  child.stdin.end();
  await new Promise((resolve) => child.once('exit', resolve));
}

interface CallRow {
  id: number;
  tool_name: string;
  session_id: string;
  response_bytes: number | null;
}
interface Message {
  seq: number;
  kind: string;
  body: string;
  truncated: boolean;
  bytes: number;
}

/** The calls of the session whose client sent `tag` as the first call's tool name. */
async function callsOf(tool: string, n: number): Promise<CallRow[]> {
  const r = await until(
    () => getJson<{ calls: CallRow[] }>(`/api/calls?tool=${tool}&limit=100`),
    (r) => r.calls.length >= n,
  );
  return r.calls;
}

describe('a hostile server behind the proxy', () => {
  it('a 10,000-deep answer: the call, its messages, its session and the export answer 200', async () => {
    await session(['{"name":"deep","arguments":{"depth":10000}}'], {
      DEEP_SERVER_CAPABILITIES: '10000',
    });
    const [call] = await callsOf('deep', 1);
    const deep = `{"deep":${deepArray(10_000)}}`;
    const detail = await getJson<{ content: { result: string; truncated: boolean } }>(
      `/api/calls/${call!.id}`,
    );
    expect(detail.content.result).toContain(deep);
    expect(detail.content.truncated).toBe(false);
    // Measured by the proxy, not 0 (JSON.stringify overflowed on it).
    expect(call!.response_bytes).toBeGreaterThan(deep.length);

    const messages = await until(
      () => getJson<{ messages: Message[] }>(`/api/messages?session=${call!.session_id}`),
      (r) => r.messages.length >= 5,
    );
    const answer = messages.messages.find((m) => m.body.includes(deep));
    expect(answer?.kind).toBe('result');

    const s = await getJson<{ proxy: { server: { capabilities: { experimental: unknown } } } }>(
      `/api/sessions/${call!.session_id}`,
    );
    expect(JSON.stringify(Object.keys(s.proxy.server.capabilities))).toContain('experimental');

    const exported = await get(`/api/export?format=jsonl&content=true&session=${call!.session_id}`);
    expect(exported.status).toBe(200);
    expect(await exported.text()).toContain(JSON.stringify(deep).slice(1, 2000));
  });

  it('200,000-deep arguments: stored cut with their size, the secret beside them redacted, nothing refused', async () => {
    const deep = deepArray(200_000);
    await session([
      `{"name":"echo","arguments":{"plain":${deep}}}`,
      `{"name":"echo","arguments":{"api_token":"s3cr3t-value","nested":${deep}}}`,
      '{"name":"echo","arguments":{"after":1}}',
    ]);
    const calls = await callsOf('echo', 3);
    const sessionId = calls[0]!.session_id;
    // Every call is recorded and answers 200.
    for (const c of calls) expect((await get(`/api/calls/${c.id}`)).status).toBe(200);

    const { messages } = await until(
      () => getJson<{ messages: Message[] }>(`/api/messages?session=${sessionId}`),
      (r) => r.messages.length >= 9,
    );
    // initialize ×2, initialized, three requests and three answers. The redaction engine reads
    // JSON text piece by piece (src/redact/json-pieces.ts), so depth never stops it: the deep
    // request with a secret is kept (cut, redacted) rather than refused.
    expect(messages).toHaveLength(9);
    for (const key of ['"plain"', '"api_token"']) {
      const cut = messages.find((m) => m.body.includes(key))!;
      expect(cut.truncated).toBe(true);
      expect(cut.bytes).toBeGreaterThan(400_000);
      expect(Buffer.byteLength(cut.body)).toBeLessThanOrEqual(MESSAGE_BODY_CAP);
    }
    expect(messages.find((m) => m.body.includes('"api_token"'))!.body).toContain(
      '"api_token":"[redacted: key-name]"',
    );
    expect(messages.some((m) => m.body.includes('s3cr3t-value'))).toBe(false);
    const { rejections } = await getJson<{ rejections: unknown[] }>('/api/rejections');
    expect(rejections).toHaveLength(0);
  });
});
