/**
 * A proxied session as the proxy reports it, posted over real HTTP: the telemetry an SDK would
 * send to /v1/ingest (startup and calls, `sdk` naming the proxy) and the content on its own
 * local route (every JSON-RPC message, the initialize facts, one unanswered request). A
 * read_file retry chain (a relative path that failed, then the absolute one), a resource read
 * and a prompt that are not tool calls, and search_issues failing with two error texts.
 */
import { expect } from '@playwright/test';
import { analyze } from '../src/canonical/index.js';
import { PROXY_CONTENT_PATH, type ProxyMessage } from '../src/shared/proxy-content.js';
import type { DevtoolsServer } from './server.js';
import { call, ingestAll } from './ui-helpers.js';

export const CONTENT_KEY = 'px_e2e_content';
export const PROXIED_SESSION = 's_0000000c0a7e';
export const SDK_SESSION = 's_0000000c0a7f';

export const ARGS_1 = '{"path":"a.txt"}';
export const ARGS_2 = '{"path":"/abs/a.txt"}';
export const READ_ERROR = "ENOENT: no such file or directory, open 'a.txt'";
export const DATE_ERROR = 'Invalid date format: use YYYY-MM-DD';
export const RATE_ERROR = 'GitHub API rate limit exceeded';

const hashOf = (text: string): string => analyze(text).argsHash;

interface Exchange {
  method: string;
  params: unknown;
  /** The answer: `result` or `error`. */
  result?: unknown;
  error?: { code: number; message: string };
  /** For tools/call: the call payload it is. */
  callAt?: number;
  latencyMs: number;
}

/** Posts the whole scenario; resolves to the session's start time. */
export async function seedProxiedSession(devtools: DevtoolsServer): Promise<number> {
  const t0 = Date.now() - 60_000;
  const exchanges: [number, Exchange][] = [
    [
      0,
      {
        method: 'initialize',
        params: { clientInfo: { name: 'e2e-client' } },
        result: { serverInfo: { name: 'fs-server' } },
        latencyMs: 4,
      },
    ],
    [
      50,
      {
        method: 'tools/list',
        params: {},
        result: { tools: [{ name: 'read_file' }, { name: 'search_issues' }] },
        latencyMs: 3,
      },
    ],
    [
      100,
      {
        method: 'resources/read',
        params: { uri: 'file:///abs/README.md' },
        result: { contents: [{ uri: 'file:///abs/README.md', text: '# Readme' }] },
        latencyMs: 6,
      },
    ],
    [
      150,
      {
        method: 'prompts/get',
        params: { name: 'summarize' },
        error: { code: -32602, message: 'Unknown prompt: summarize' },
        latencyMs: 2,
      },
    ],
    [
      1000,
      {
        method: 'tools/call',
        params: { name: 'read_file', arguments: JSON.parse(ARGS_1) },
        result: { content: [{ type: 'text', text: READ_ERROR }], isError: true },
        callAt: 1000,
        latencyMs: 12,
      },
    ],
    [
      3000,
      {
        method: 'tools/call',
        params: { name: 'read_file', arguments: JSON.parse(ARGS_2) },
        result: { content: [{ type: 'text', text: 'hello from a.txt' }] },
        callAt: 3000,
        latencyMs: 9,
      },
    ],
  ];
  // search_issues: three date errors (one of them a first call), one rate limit; each its own args.
  const failures = [DATE_ERROR, DATE_ERROR, RATE_ERROR, DATE_ERROR];
  failures.forEach((text, i) => {
    const at = 40_000 + i * 40_000; // 40 s apart: separate calls, not one chain.
    exchanges.push([
      at,
      {
        method: 'tools/call',
        params: { name: 'search_issues', arguments: { since: `03/0${i + 1}/2026` } },
        result: { content: [{ type: 'text', text }], isError: true },
        callAt: at,
        latencyMs: 20,
      },
    ]);
  });

  const messages: ProxyMessage[] = [];
  const calls: Record<string, unknown>[] = [];
  const push = (m: Omit<ProxyMessage, 'seq' | 'truncated' | 'bytes'>): void => {
    messages.push({
      ...m,
      seq: messages.length,
      truncated: false,
      bytes: Buffer.byteLength(m.body),
    });
  };
  exchanges.forEach(([offset, x], n) => {
    const id = String(n + 1);
    const at = t0 + offset;
    const started = x.callAt === undefined ? null : new Date(t0 + x.callAt).toISOString();
    push({
      direction: 'client',
      at_ms: at,
      method: x.method,
      rpc_id: id,
      kind: 'request',
      call_started_at: started,
      body: JSON.stringify({ jsonrpc: '2.0', id: n + 1, method: x.method, params: x.params }),
    });
    if (n === 0)
      push({
        direction: 'client',
        at_ms: at + 5,
        method: 'notifications/initialized',
        rpc_id: null,
        kind: 'notification',
        body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      });
    const answer = x.error
      ? { jsonrpc: '2.0', id: n + 1, error: x.error }
      : { jsonrpc: '2.0', id: n + 1, result: x.result };
    push({
      direction: 'server',
      at_ms: at + x.latencyMs,
      method: x.method,
      rpc_id: id,
      kind: x.error ? 'error' : 'result',
      call_started_at: started,
      body: JSON.stringify(answer),
    });
    if (x.callAt !== undefined) {
      const p = x.params as { name: string; arguments: unknown };
      const isError = (x.result as { isError?: boolean }).isError === true;
      calls.push({
        ...call({
          session: PROXIED_SESSION,
          tool: p.name,
          at: t0 + x.callAt,
          ms: x.latencyMs,
          outcome: isError ? 'tool_error' : 'ok',
          hash: hashOf(JSON.stringify(p.arguments)),
          client: 'e2e-client',
        }),
      });
    }
  });
  // A progress notification from the server and a request the client closed on.
  push({
    direction: 'server',
    at_ms: t0 + 200_000,
    method: 'notifications/message',
    rpc_id: null,
    kind: 'notification',
    body: '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"indexing"}}',
  });
  push({
    direction: 'client',
    at_ms: t0 + 201_000,
    method: 'tools/call',
    rpc_id: '99',
    kind: 'request',
    body: '{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"/abs/big.bin"}}}',
  });

  await ingestAll(
    devtools,
    [
      {
        v: 1,
        type: 'startup',
        session_id: PROXIED_SESSION,
        client_name: 'e2e-client',
        sdk: 'mcpulse-devtools-proxy@0.0.0-e2e',
        tools: [
          { name: 'read_file', schema_bytes: 120 },
          { name: 'search_issues', schema_bytes: 200 },
        ],
      },
      ...calls,
      // An SDK session beside it: its calls have no content.
      {
        v: 1,
        type: 'startup',
        session_id: SDK_SESSION,
        client_name: 'e2e-client',
        tools: [{ name: 'read_file', schema_bytes: 120 }],
      },
      call({ session: SDK_SESSION, tool: 'read_file', at: t0 + 5000, hash: hashOf(ARGS_1) }),
    ],
    CONTENT_KEY,
  );
  const res = await fetch(devtools.url + PROXY_CONTENT_PATH, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${CONTENT_KEY}`,
      'content-type': 'application/json',
      ...devtools.headers,
    },
    body: JSON.stringify({
      v: 1,
      session_id: PROXIED_SESSION,
      session: {
        protocol_version: '2025-06-18',
        client: {
          name: 'e2e-client',
          version: '1.2.0',
          capabilities: { roots: { listChanged: true }, sampling: {} },
        },
        server: {
          name: 'fs-server',
          version: '0.3.0',
          capabilities: { tools: {}, resources: {}, prompts: {} },
          instructions: 'Read files under /abs. Paths must be absolute.',
        },
        transport: 'stdio',
      },
      messages,
      unanswered: [
        { rpc_id: '99', method: 'tools/call', tool_name: 'read_file', sent_at_ms: t0 + 201_000 },
      ],
    }),
  });
  expect(res.status, await res.text()).toBeLessThan(300);
  return t0;
}
