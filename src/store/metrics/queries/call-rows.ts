/** A stored call with its per-call facts, as lists and session detail read it. */
/** Columns of a call with its stored facts, for lists and session detail. */
export const CALL_COLUMNS = `id, project_id, batch_id, session_id, client_name, tool_name, started_at, started_ms,
  duration_ms, outcome, response_bytes, is_empty, args_hash, received_ms, link, prev_link, fcs, run_id, chain,
  prev_tool, size_bucket`;

/** A call row with its stored facts. */
export interface FactRow {
  id: number;
  project_id: number;
  batch_id: number;
  session_id: string;
  client_name: string;
  tool_name: string;
  started_at: string;
  started_ms: number;
  duration_ms: number;
  outcome: string;
  response_bytes: number;
  is_empty: number;
  args_hash: string;
  received_ms: number;
  link: number;
  prev_link: number;
  fcs: number;
  run_id: number;
  chain: number;
  prev_tool: string | null;
  size_bucket: number;
}
