/** A stored call with its per-call facts, as lists and session detail read it. */
import type { CallRow } from '../../../shared/rows.js';

/** Columns of a call with its stored facts, for lists and session detail. */
export const CALL_COLUMNS = `id, project_id, batch_id, session_id, client_name, tool_name, started_at, started_ms,
  duration_ms, outcome, response_bytes, is_empty, args_hash, received_ms, link, prev_link, fcs, run_id, chain,
  prev_tool, size_bucket, extra`;

/** A call row with its stored facts (`is_empty` as SQLite stores it, 0/1; `extra` as its JSON text). */
export interface FactRow extends Omit<CallRow, 'is_empty' | 'extra'> {
  is_empty: number;
  link: number;
  prev_link: number;
  fcs: number;
  run_id: number;
  chain: number;
  prev_tool: string | null;
  size_bucket: number;
  /** Unknown fields the SDK sent, as JSON text, or null. */
  extra: string | null;
}
