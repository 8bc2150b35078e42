/**
 * What the MCP tools answer: the dashboard API's own responses, trimmed to what helps a coding
 * assistant reason about a session — each call's outcome, links and the engine's one-sentence
 * reason — without ids and bucket indexes it has no use for.
 */
import type { CallView, ChainView } from '../metrics/report.js';
import { stringifyJson } from '../shared/deep-json.js';

/** One call, for a model to read. */
export function callBrief(c: CallView) {
  return {
    id: c.id,
    started_at: c.started_at,
    client: c.client_name,
    tool: c.tool_name,
    outcome: c.outcome_class,
    duration_ms: c.duration_ms,
    response_bytes: c.response_bytes,
    args_hash: c.args_hash,
    first_call_success: c.first_call_success,
    retried: c.retried,
    retry_of_previous: c.retry_of_previous,
    repeat_of_previous: c.repeat_of_previous,
    retry_chain: c.chain_id,
    why: c.reason,
  };
}

/** One retry chain, for a model to read (session detail lists chains without their calls). */
export function chainBrief(c: Omit<ChainView, 'calls'> & { calls?: CallView[] }) {
  return {
    id: c.id,
    session_id: c.session_id,
    client: c.client_name,
    tool: c.tool,
    resolved: c.resolved,
    final_outcome: c.final_outcome,
    calls: c.call_count,
    retries: c.retries,
    repeats: c.repeats,
    started_at: new Date(c.started_ms).toISOString(),
    span_ms: c.last_started_ms - c.started_ms,
    links: c.links.map((l) => `${l.from}→${l.to} ${l.kind} after ${l.gap_ms} ms`),
    ...(c.calls
      ? {
          steps: c.calls.map(
            (v) => `${v.outcome_class} (args ${v.args_hash}, ${v.duration_ms} ms)`,
          ),
        }
      : {}),
  };
}

/**
 * Pretty JSON as the text of a tool result; compact when it nests too deep to indent (a proxied
 * server's 10,000-deep capabilities overflowed JSON.stringify, and indenting them would be
 * megabytes of spaces).
 */
export function asText(value: unknown): { content: { type: 'text'; text: string }[] } {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    text = stringifyJson(value);
  }
  return { content: [{ type: 'text', text }] };
}

/** A tool error the model can act on. */
export function asError(message: string): {
  isError: true;
  content: { type: 'text'; text: string }[];
} {
  return { isError: true, content: [{ type: 'text', text: message }] };
}
