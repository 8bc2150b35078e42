/**
 * A fast path for the item every SDK sends thousands of times: a well-formed call.
 *
 * zod walks its schema generically (~3 µs a call, as much as parsing and inserting the call
 * in the bench baseline). This checks the same rules by hand and builds the same object zod
 * would; anything it is not sure of returns `null` and goes to zod, which alone words the
 * reasons for a rejection. test/ingest/fast-call.test.ts holds it to zod on generated items:
 * whenever this accepts, zod accepts with an identical result.
 */
import { OUTCOMES } from '../shared/outcomes.js';
import { ISO_DATETIME, LIMITS, type CallPayload } from '../shared/wire.js';

const ARGS_HASH = /^[0-9a-f]{4,64}$/;
const OUTCOME_SET: ReadonlySet<string> = new Set(OUTCOMES);
const isInt = (v: unknown, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;

/** The validated call, or `null` when zod must decide. Never throws. */
export function fastCall(item: unknown): CallPayload | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return null;
  const o = item as Record<string, unknown>;
  if (o.v !== 1 || o.type !== 'call') return null;
  const {
    session_id,
    client_name,
    tool_name,
    started_at,
    outcome,
    args_hash,
    duration_ms = 0,
    response_bytes = 0,
    is_empty = false,
  } = o;
  if (
    typeof session_id !== 'string' ||
    session_id.length < 1 ||
    session_id.length > LIMITS.sessionId ||
    typeof client_name !== 'string' ||
    client_name.length > LIMITS.clientName ||
    typeof tool_name !== 'string' ||
    tool_name.length < 1 ||
    tool_name.length > LIMITS.toolName ||
    typeof started_at !== 'string' ||
    !ISO_DATETIME.test(started_at) ||
    !isInt(duration_ms, LIMITS.durationMs) ||
    typeof outcome !== 'string' ||
    !OUTCOME_SET.has(outcome) ||
    !isInt(response_bytes, LIMITS.bytes) ||
    typeof is_empty !== 'boolean' ||
    typeof args_hash !== 'string' ||
    !ARGS_HASH.test(args_hash)
  ) {
    return null;
  }
  // Key order as zod's output (the schema's), so stored extras and live events match.
  return {
    v: 1,
    type: 'call',
    session_id,
    client_name,
    tool_name,
    started_at,
    duration_ms,
    outcome: outcome as CallPayload['outcome'],
    response_bytes,
    is_empty,
    args_hash,
  };
}
