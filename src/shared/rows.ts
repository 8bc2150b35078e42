/** Row shapes the store returns. Times are UTC epoch milliseconds. */
import type { Outcome } from './outcomes.js';

export interface ProjectRow {
  id: number;
  key_prefix: string;
  key_sha256: string;
  first_seen_ms: number;
  last_seen_ms: number;
  calls: number;
  sessions: number;
}

export interface CallRow {
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
  extra: Record<string, unknown> | null;
}

/** A call's own fields, without its batch and unknown extras: what every view of a call shows. */
export type CallFields = Omit<CallRow, 'batch_id' | 'extra'>;

export interface StartupRow {
  id: number;
  project_id: number;
  batch_id: number;
  session_id: string;
  client_name: string;
  received_ms: number;
  tools: { name: string; schema_bytes: number }[];
  extra: Record<string, unknown> | null;
}

/** One agreement verdict: did two tools return the same declared field alike? */
export interface AgreementRow {
  id: number;
  project_id: number;
  batch_id: number;
  session_id: string;
  v: 1;
  type: 'agreement';
  field: string;
  tool_a: string;
  tool_b: string;
  agreed: boolean;
  /** Exactly as sent. */
  checked_at: string;
  checked_ms: number;
  /** The window the verdict was reached under; `null` when the SDK did not say. */
  window_ms: number | null;
  received_ms: number;
  extra: Record<string, unknown> | null;
}

export interface BatchRow {
  id: number;
  project_id: number | null;
  key_prefix: string | null;
  /** The project's ref (12 hex of the key's SHA-256): tells apart keys that share a prefix. */
  project_ref: string | null;
  received_ms: number;
  status: number;
  accepted: number;
  rejected: number;
  body_bytes: number;
  error: string | null;
  user_agent: string | null;
  /** Set only for a request that missed `/v1/ingest` (a wrong path or method); else `null`. */
  method: string | null;
  path: string | null;
  /** One sentence saying what to change, when there is one. */
  hint: string | null;
  /** Identical refusals counted on this row (1 = just this one). */
  repeats: number;
  /** When the last of the repeats arrived; `null` = only once. */
  last_received_ms: number | null;
}

export interface RejectionRow {
  id: number;
  batch_id: number;
  project_id: number | null;
  key_prefix: string | null;
  /** The project's ref (12 hex of the key's SHA-256): tells apart keys that share a prefix. */
  project_ref: string | null;
  received_ms: number;
  item_index: number | null;
  reason: string;
  item: string;
  truncated: boolean;
}

/** Filters shared by every read: all optional, all composable. */
export interface CallFilter {
  /** Project id; omitted = all projects together. */
  projectId?: number;
  /** The selected project's ref and key-prefix label, for echoes (set by the API's parser). */
  projectRef?: string;
  projectLabel?: string;
  /** Inclusive lower bound on `started_ms`. */
  from?: number;
  /** Exclusive upper bound on `started_ms`. */
  to?: number;
  tool?: string;
  client?: string;
  session?: string;
}

/** One page of a list, newest first unless said otherwise. */
export interface Page {
  limit?: number;
  /** Return rows with id below this (keyset pagination). */
  before?: number;
}
