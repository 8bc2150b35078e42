/**
 * Turning observed JSON-RPC into MCPulse payloads, with the producer's own measures
 * (`args_hash` by the canonical engine, `response_bytes` by the UTF-16 rule, `is_empty` by the
 * SDKs' rule), so a proxied call and an SDK-recorded call are measured the same way.
 */
import { hashArguments, isEmptyResult, responseBytes } from '../producer/measure.js';
import { WIRE_VERSION, type CallPayload, type Outcome } from '../producer/types.js';
import { VERSION } from '../server/version.js';

/** The `sdk` a proxied session's startups carry (the field newer SDKs send), e.g. `…@0.1.0`. */
export const PROXY_SDK = `mcpulse-devtools-proxy@${VERSION}`;

/** What marks a session as proxied: its startup's `sdk` starts with this. */
export const PROXY_SDK_NAME = 'mcpulse-devtools-proxy';

/** How the client reached the server through the proxy (the PHP SDK's vocabulary). */
export type ProxyTransport = 'stdio' | 'http';

/** JSON-RPC "invalid params": the only error a proxy can read as `bad_args`. */
export const INVALID_PARAMS = -32602;

/** A startup payload with the extras newer SDKs send (`sdk`, `transport`, `protocol_version`). */
export interface ProxyStartupPayload {
  v: typeof WIRE_VERSION;
  type: 'startup';
  session_id: string;
  client_name: string;
  sdk: string;
  transport: ProxyTransport;
  protocol_version: string | null;
  tools: { name: string; schema_bytes: number }[];
}

/** What ended a `tools/call`, as the wire showed it. */
export type CallEnd =
  { kind: 'result'; result: unknown } | { kind: 'error'; code: number | null } | { kind: 'gone' };

/**
 * The outcome a proxy can tell from the wire: `isError` → tool_error; JSON-RPC -32602 →
 * bad_args; any other JSON-RPC error, or no answer before the server went away → crashed.
 */
export function outcomeOf(end: CallEnd): Outcome {
  if (end.kind === 'result')
    return (end.result as { isError?: unknown } | null)?.isError === true ? 'tool_error' : 'ok';
  if (end.kind === 'error' && end.code === INVALID_PARAMS) return 'bad_args';
  return 'crashed';
}

/** The call payload for one `tools/call` and how it ended. */
export function callPayload(input: {
  sessionId: string;
  clientName: string;
  params: unknown;
  startedAt: string;
  durationMs: number;
  end: CallEnd;
}): CallPayload {
  const params = (input.params ?? null) as { name?: unknown; arguments?: unknown } | null;
  const outcome = outcomeOf(input.end);
  const result = input.end.kind === 'result' ? input.end.result : undefined;
  const name = typeof params?.name === 'string' && params.name ? params.name : 'unknown';
  return {
    v: WIRE_VERSION,
    type: 'call',
    session_id: input.sessionId,
    client_name: input.clientName,
    tool_name: name.slice(0, 200),
    started_at: input.startedAt,
    duration_ms: Math.min(86_400_000, Math.max(0, Math.round(input.durationMs))),
    outcome,
    // An error answer has no result to cost the context window (as an SDK records a throw).
    response_bytes: result === undefined ? 0 : responseBytes(result),
    is_empty: outcome === 'ok' && isEmptyResult(result),
    args_hash: hashArguments(params?.arguments),
  };
}

/** `{name, schema_bytes}` for each named tool of a `tools/list` result, at most 500. */
export function toolsOf(listed: unknown[]): { name: string; schema_bytes: number }[] {
  const tools: { name: string; schema_bytes: number }[] = [];
  for (const tool of listed) {
    const name = (tool as { name?: unknown } | null)?.name;
    if (typeof name === 'string' && name.length > 0)
      tools.push({ name: name.slice(0, 200), schema_bytes: responseBytes(tool) });
    if (tools.length === 500) break;
  }
  return tools;
}
