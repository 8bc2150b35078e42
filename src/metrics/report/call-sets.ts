/** Folds of a small set of calls read in full (one session, a session compare). */
import type { OutcomeCounts } from '../../shared/outcomes.js';
import {
  avgResponse,
  firstCallSuccessOf,
  groupStats,
  outcomeClass,
  totalStats,
  type FirstCallSuccess,
  type StatRow,
} from '../aggregate.js';
import { histogramOf, latencyBucketIndex, percentiles } from '../latency.js';
import { LINK } from '../links.js';
import type { FactCall } from './call-views.js';
import { latencySummary, type LatencySummary } from './latency-summary.js';

/** Per-tool breakdown of a small set of calls (a session; session compare). */
export interface ToolBreakdown {
  tool: string;
  calls: number;
  first_call_success: FirstCallSuccess;
  retries: number;
  retry_chains: number;
  outcomes: OutcomeCounts;
  avg_response_bytes: number | null;
  p95_ms: number | null;
}

/** Stat rows of a list of calls (for small sets read in full). */
export function statRowsOf(calls: readonly FactCall[]): StatRow[] {
  return calls.map((c) => {
    const l = latencyBucketIndex(c.duration_ms);
    return {
      tool: c.tool_name,
      client: c.client_name,
      oc: outcomeClass(c.outcome, c.is_empty),
      link: c.link,
      head: c.chain === 1 && c.prev_link === LINK.none ? 1 : 0,
      calls: 1,
      units: c.response_bytes,
      duration: c.duration_ms,
      l0: l === 0 ? 1 : 0,
      l1: l === 1 ? 1 : 0,
      l2: l === 2 ? 1 : 0,
      l3: l === 3 ? 1 : 0,
    };
  });
}

/** Per-tool breakdown of a set of calls, most called first. */
export function toolBreakdown(calls: readonly FactCall[]): ToolBreakdown[] {
  const stats = groupStats(statRowsOf(calls), (r) => r.tool);
  const durations = new Map<string, number[]>();
  for (const c of calls)
    durations.set(c.tool_name, [...(durations.get(c.tool_name) ?? []), c.duration_ms]);
  return [...stats.entries()]
    .map(([tool, s]) => ({
      tool,
      calls: s.calls,
      first_call_success: firstCallSuccessOf(s),
      retries: s.retries,
      retry_chains: s.retry_chains,
      outcomes: s.outcomes,
      avg_response_bytes: avgResponse(s),
      p95_ms: percentiles(histogramOf(durations.get(tool) ?? [])).p95_ms,
    }))
    .sort((a, b) => b.calls - a.calls || (a.tool < b.tool ? -1 : 1));
}

/** Latency of a small set of calls. */
export function latencyOfCalls(calls: readonly FactCall[]): LatencySummary {
  return latencySummary(
    totalStats(statRowsOf(calls)),
    percentiles(histogramOf(calls.map((c) => c.duration_ms))),
  );
}
