/**
 * Shapes of the metrics API (src/server/api/metrics-routes.ts; docs/api.md "Metrics routes").
 * The building blocks are the metrics engine's own browser-safe types, imported type-only so
 * a change there shows up here as a type error; route envelopes are restated below. Pages read
 * only this file, so adapting to the API is one place.
 */
import type {
  CallView,
  ChainView,
  CostSummary,
  Insight,
  LatencySummary,
  SizeBucketCount,
  Summary,
  ToolBreakdown,
  ToolSummary,
} from '../../../src/metrics/report';
import type { FirstCallSuccess } from '../../../src/metrics/aggregate';
import type { OutcomeCounts } from '../../../src/shared/outcomes';
import type { LinkKind } from '../../../src/metrics/links';

export type {
  CallView,
  CostSummary,
  FirstCallSuccess,
  Insight,
  LatencySummary,
  LinkKind,
  OutcomeCounts,
  SizeBucketCount,
  Summary,
  ToolBreakdown,
  ToolSummary,
};

/** A chain as the session detail sends it (without its calls, which are listed beside it). */
export type Chain = Omit<ChainView, 'calls'>;
export type { ChainView };

export type Severity = Insight['severity'];

export interface TimePoint {
  start_ms: number;
  start: string;
  calls: number;
  first_call_success: FirstCallSuccess;
  outcomes: OutcomeCounts;
  errors: number;
  retries: number;
  response_units: number;
  cost_usd: number;
  p95_ms: number | null;
  sessions_started: number;
}

export interface Timeseries {
  /** Auto: minutes under ~3 h, hours up to 72 h, days beyond. */
  bucket: 'minute' | 'hour' | 'day';
  width_ms: number;
  tz: number;
  from: string | null;
  to: string | null;
  points: TimePoint[];
}

/** One row of `GET /api/sessions`. */
export interface SessionView {
  id: string;
  project_id: number;
  clients: string[];
  first_seen_ms: number;
  last_seen_ms: number;
  duration_ms: number;
  calls: number;
  outcomes: OutcomeCounts;
  errors: number;
  error_rate: number | null;
  first_call_success: FirstCallSuccess;
  retries: number;
  repeats: number;
  unknown_links: number;
  retry_chains: number;
  slow_calls: number;
  avg_ms: number | null;
  response_units: number;
  response_tokens: number;
  schema_bytes: number | null;
  schema_tokens: number;
  tokens: number;
  cost_usd: number;
}

/** The sessions-list sort keys, as the store's query defines them. */
export type { SessionSort } from '../../../src/store/metrics/queries/sessions';

export interface SessionPage {
  total: number;
  offset: number;
  limit: number;
  sessions: SessionView[];
}

export interface SessionStartup {
  id: number;
  client_name: string;
  received_ms: number;
  schema_bytes: number;
  tools: { name: string; schema_bytes: number }[];
}

export interface SessionDetail {
  session: SessionView;
  startups: SessionStartup[];
  latency: LatencySummary;
  tools: ToolBreakdown[];
  chains: Chain[];
  calls: CallView[];
}

export interface CompareResult {
  a: { session: SessionView; latency: LatencySummary; chains: number };
  b: { session: SessionView; latency: LatencySummary; chains: number };
  tools: { tool: string; a: ToolBreakdown | null; b: ToolBreakdown | null }[];
}

export interface ToolDetail {
  tool: ToolSummary;
  insights: Insight[];
  latency: LatencySummary & { histogram: SizeBucketCount[] };
  sizes: {
    histogram: SizeBucketCount[];
    response_units: number;
    avg_response_units: number | null;
    response_tokens: number;
    response_cost_usd: number;
    schema_bytes: number | null;
    schema_tokens: number | null;
    schema_cost_per_session_usd: number | null;
  };
  chains: { total: number; resolved: number; unresolved: number; recent: ChainView[] };
  pairs: {
    outgoing: { tool: string; count: number }[];
    incoming: { tool: string; count: number }[];
  };
  clients: {
    client: string;
    calls: number;
    first_call_success: FirstCallSuccess;
    outcomes: OutcomeCounts;
  }[];
  usd_per_million_tokens: number;
}

export interface SizesReport {
  response: {
    calls: number;
    units: number;
    avg_units: number | null;
    tokens: number;
    cost_usd: number;
    histogram: SizeBucketCount[];
    tools: {
      tool: string;
      calls: number;
      units: number;
      avg_units: number | null;
      tokens: number;
      cost_usd: number;
      heavy: boolean;
      histogram: SizeBucketCount[];
    }[];
  };
  schema: {
    registered_tools: number;
    bytes: number;
    tokens: number;
    cost_per_session_usd: number;
    histogram: SizeBucketCount[];
    tools: {
      name: string;
      schema_bytes: number;
      tokens: number;
      cost_per_session_usd: number;
      share: number | null;
    }[];
  };
  cost: CostSummary;
}

export interface ClientRow {
  client: string;
  calls: number;
  share: number | null;
  sessions: number;
  first_call_success: FirstCallSuccess;
  outcomes: OutcomeCounts;
  error_rate: number | null;
  retries: number;
  retry_chains: number;
  avg_response_units: number | null;
  avg_ms: number | null;
}

export interface Pair {
  from: string;
  to: string;
  count: number;
  share: number | null;
}

export interface CallPage {
  calls: CallView[];
  next_cursor: string | null;
}
