/** Row shapes of the core API (src/server/api/core-routes.ts). Times are UTC epoch ms. */
export type Outcome = 'ok' | 'bad_args' | 'tool_error' | 'crashed';
/** The five-way split the metrics use: `ok` means ok and not empty. */
export type OutcomeKey = 'ok' | 'empty' | 'bad_args' | 'tool_error' | 'crashed';
export const OUTCOME_KEYS: OutcomeKey[] = ['ok', 'empty', 'bad_args', 'tool_error', 'crashed'];
export const OUTCOME_LABEL: Record<OutcomeKey, string> = {
  ok: 'ok',
  empty: 'empty',
  bad_args: 'bad args',
  tool_error: 'tool error',
  crashed: 'crashed',
};

export interface Status {
  endpoint: string;
  addresses: string[];
  port: number;
  dbPath: string;
  startedMs: number;
  version: string;
  counts: {
    projects: number;
    calls: number;
    startups: number;
    batches: number;
    rejections: number;
  };
}

export interface Project {
  id: number;
  key_prefix: string;
  key_fingerprint: string;
  first_seen_ms: number;
  last_seen_ms: number;
  calls: number;
  sessions: number;
}

export interface Call {
  id: number;
  project_id: number;
  batch_id: number;
  session_id: string;
  client_name: string;
  tool_name: string;
  started_at: string;
  started_ms: number;
  duration_ms: number;
  outcome: Outcome;
  response_bytes: number;
  is_empty: boolean;
  args_hash: string;
  received_ms: number;
}

export interface Startup {
  id: number;
  project_id: number;
  batch_id: number;
  session_id: string;
  client_name: string;
  received_ms: number;
  tools: { name: string; schema_bytes: number }[];
}

export interface Batch {
  id: number;
  project_id: number | null;
  key_prefix: string | null;
  received_ms: number;
  status: number;
  accepted: number;
  rejected: number;
  body_bytes: number;
  error: string | null;
  user_agent: string | null;
}

export interface Rejection {
  id: number;
  batch_id: number;
  project_id: number | null;
  key_prefix: string | null;
  received_ms: number;
  item_index: number | null;
  reason: string;
  item: string;
  truncated: boolean;
}

export function outcomeKey(c: { outcome: Outcome; is_empty: boolean }): OutcomeKey {
  return c.outcome === 'ok' && c.is_empty ? 'empty' : c.outcome;
}
