/**
 * Builders for what the proxy posts (src/shared/proxy-content.ts) and the call payloads it
 * sends beside them, so a test can lay down a proxied session exactly as the proxy would.
 */
import {
  PROXY_CONTENT_PATH,
  type ProxyContent,
  type ProxyMessage,
} from '../../src/shared/proxy-content.js';
import type { CallPayload } from '../../src/shared/wire.js';
import { authedFetch } from '../helpers/token.js';

export const KEY = 'mp_live_test';
export const BASE_MS = Date.UTC(2026, 11, 2, 10, 0, 0);

/** POSTs `body` (an object, or raw text) to the content route with a bearer key. */
export function postContent(
  url: string,
  body: unknown,
  init: { key?: string | null; headers?: Record<string, string> } = {},
): Promise<Response> {
  const key = init.key === undefined ? KEY : init.key;
  return authedFetch(`${url}${PROXY_CONTENT_PATH}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...init.headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** One scripted tool call: its arguments and what the server answered. */
export interface ScriptedCall {
  tool: string;
  args: Record<string, unknown>;
  /** A text answer; `isError` marks a tool error; `rpcError` answers with a JSON-RPC error. */
  text?: string;
  isError?: boolean;
  rpcError?: { code: number; message: string };
  /** Milliseconds after BASE_MS. */
  t: number;
  duration?: number;
}

/**
 * A proxied session as the proxy would report it: the call payloads for /v1/ingest and the
 * content post with every message (initialize, then request/answer per call), seq from 0.
 */
export function proxiedSession(
  sessionId: string,
  calls: readonly ScriptedCall[],
): { ingest: { batch: CallPayload[] }; content: ProxyContent } {
  const messages: ProxyMessage[] = [];
  const push = (m: Omit<ProxyMessage, 'seq' | 'bytes' | 'truncated'> & { truncated?: boolean }) =>
    messages.push({
      seq: messages.length,
      truncated: false,
      bytes: Buffer.byteLength(m.body),
      ...m,
    });
  push({
    direction: 'client',
    at_ms: BASE_MS - 100,
    method: 'initialize',
    rpc_id: '0',
    kind: 'request',
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: { roots: {} },
        clientInfo: { name: 'test-client', version: '1.2.3' },
      },
    }),
  });
  const batch: CallPayload[] = calls.map((c, i) => {
    const startedAt = new Date(BASE_MS + c.t).toISOString();
    const id = i + 1;
    push({
      direction: 'client',
      at_ms: BASE_MS + c.t,
      method: 'tools/call',
      rpc_id: String(id),
      kind: 'request',
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: c.tool, arguments: c.args },
      }),
      call_started_at: startedAt,
    });
    const answer = c.rpcError
      ? { jsonrpc: '2.0', id, error: c.rpcError }
      : {
          jsonrpc: '2.0',
          id,
          result: {
            content: [{ type: 'text', text: c.text ?? 'ok' }],
            ...(c.isError ? { isError: true } : {}),
          },
        };
    push({
      direction: 'server',
      at_ms: BASE_MS + c.t + (c.duration ?? 10),
      method: 'tools/call',
      rpc_id: String(id),
      kind: c.rpcError ? 'error' : 'result',
      body: JSON.stringify(answer),
      call_started_at: startedAt,
    });
    return {
      v: 1,
      type: 'call',
      session_id: sessionId,
      client_name: 'test-client',
      tool_name: c.tool,
      started_at: startedAt,
      duration_ms: c.duration ?? 10,
      outcome: c.rpcError ? 'bad_args' : c.isError ? 'tool_error' : 'ok',
      response_bytes: 20,
      is_empty: false,
      args_hash: 'aaaaaaaaaaaa',
    };
  });
  return {
    ingest: { batch },
    content: {
      v: 1,
      session_id: sessionId,
      session: {
        protocol_version: '2025-06-18',
        client: { name: 'test-client', version: '1.2.3', capabilities: { roots: {} } },
        server: {
          name: 'fixture-server',
          version: '0.1.0',
          capabilities: { tools: {} },
          instructions: 'Be kind.',
        },
        transport: 'stdio',
      },
      messages,
    },
  };
}
