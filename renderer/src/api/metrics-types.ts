/**
 * Shapes of the metrics API (src/server/api/metrics-routes.ts, docs/api.md "Metrics routes").
 * `/api/summary` is a fixed contract (issue 4); the rest follow the metrics engine's building
 * blocks in src/metrics. Pages read only these types, so adapting to the API is one file.
 */
import type { OutcomeKey } from './core-types';

export type OutcomeCounts = Record<OutcomeKey, number>;

export interface FirstCallSuccess {
  rate: number | null;
  successes: number;
  calls: number;
}

export interface LatencySummary {
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  p95_bucket: string | null;
  buckets: { under_100: number; under_500: number; under_2000: number; over_2000: number };
}

export interface ToolSummary {
  name: string;
  registered: boolean;
  schema_bytes: number | null;
  calls: number;
  first_call_successes: number;
  retries: number;
  outcomes: OutcomeCounts;
  avg_response_bytes: number | null;
  p95_ms: number | null;
  dead: boolean;
  avg_ms?: number | null;
  p50_ms?: number | null;
  first_call_success?: FirstCallSuccess;
  response_units?: number;
  retry_chains?: number;
  heavy?: boolean;
  slow_calls?: number;
}

export interface Summary {
  calls: number;
  sessions: number;
  retries: number;
  retry_chains: number;
  first_call_success: FirstCallSuccess;
  outcomes: OutcomeCounts;
  latency: LatencySummary;
  tools: ToolSummary[];
  error_rate?: number | null;
  empty_rate?: number | null;
  response_units?: number;
  tokens?: number;
  cost_usd?: number;
  cost_per_session_usd?: number | null;
  schema_units?: number;
  usd_per_million_tokens?: number;
}

export interface TimePoint {
  /** Bucket start, epoch ms. */
  t: number;
  calls: number;
  first_call_success: FirstCallSuccess;
  outcomes: OutcomeCounts;
  p95_ms: number | null;
  cost_usd?: number;
  sessions?: number;
}

export interface Timeseries {
  bucket: 'hour' | 'day' | string;
  bucket_ms: number;
  points: TimePoint[];
}

export interface SessionRow {
  session_id: string;
  project_id?: number;
  clients: string[];
  first_ms: number;
  last_ms: number;
  duration_ms: number;
  calls: number;
  outcomes: OutcomeCounts;
  first_call_success: FirstCallSuccess;
  retries: number;
  retry_chains?: number;
  response_units: number;
  tokens?: number;
  cost_usd?: number;
  schema_units?: number | null;
  tools?: number;
}

export interface SessionList {
  sessions: SessionRow[];
  total: number;
}

/** How a call relates to the next same-tool call in its session. */
export type LinkKind = 'none' | 'retry' | 'repeat' | 'unknown';

/** One call of a session with the facts that explain its first-call success. */
export interface SessionCall {
  id: number;
  session_id: string;
  client_name: string;
  tool_name: string;
  started_at: string;
  started_ms: number;
  duration_ms: number;
  outcome: 'ok' | 'bad_args' | 'tool_error' | 'crashed';
  is_empty: boolean;
  response_bytes: number;
  args_hash: string;
  /** Link to the next same-tool call. */
  link: LinkKind;
  /** Link from the previous same-tool call (`retry` = this call is a retry). */
  prev_link: LinkKind;
  first_call_success: boolean;
  /** Id of the retry chain this call belongs to, if any. */
  chain_id: number | null;
}

export interface ChainLink {
  from: number;
  to: number;
  kind: LinkKind;
  gap_ms: number;
}

export interface Chain {
  id: number;
  session_id: string;
  tool: string;
  started_ms: number;
  last_started_ms: number;
  ended_ms: number;
  call_count: number;
  call_ids: number[];
  links: ChainLink[];
  retries: number;
  repeats: number;
  unknown_links: number;
  resolved: boolean;
  final_outcome: OutcomeKey;
}

export interface SessionDetail {
  session: SessionRow;
  calls: SessionCall[];
  chains: Chain[];
}

export interface SizeBucket {
  bucket: number;
  label: string;
  min: number;
  max: number | null;
  count: number;
  units: number;
}

export interface Sizes {
  response: SizeBucket[];
  schema: SizeBucket[];
  response_units: number;
  avg_response_units: number | null;
  schema_units: number;
  tokens: number;
  cost_usd: number;
  usd_per_million_tokens: number;
  tools: {
    name: string;
    calls: number;
    avg_response_units: number | null;
    max_response_units?: number | null;
    response_units: number;
    schema_bytes: number | null;
    cost_usd?: number;
  }[];
}

export type Severity = 'high' | 'medium' | 'low';

export interface Insight {
  id: string;
  kind: 'low_first_call_success' | 'empty_results' | 'slow_calls' | 'heavy_payload' | 'dead_tool';
  severity: Severity;
  tool: string;
  value: number | null;
  threshold: number | null;
  calls: number;
  size: number;
  message: string;
}

export interface ClientRow {
  name: string;
  calls: number;
  sessions: number;
  first_call_success: FirstCallSuccess;
  outcomes?: OutcomeCounts;
}

export interface Pair {
  from: string;
  to: string;
  count: number;
}

export interface ToolDetail {
  tool: ToolSummary;
  latency: LatencySummary;
  response_sizes: SizeBucket[];
  chains: Chain[];
  pairs: { before: Pair[]; after: Pair[] } | Pair[];
  timeseries?: TimePoint[];
}
