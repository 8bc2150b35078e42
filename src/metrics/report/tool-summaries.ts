/** Per-tool summaries (registered, dead, badges) and the insights drawn from them. */
import type { OutcomeCounts } from '../../shared/outcomes.js';
import {
  avgResponse,
  emptyRate,
  errorRate,
  firstCallSuccessOf,
  groupStats,
  rate,
  totalStats,
  type FirstCallSuccess,
  type StatRow,
  type Stats,
} from '../aggregate.js';
import {
  HEAVY_PAYLOAD_UNITS,
  INSIGHT_MIN_CALLS,
  THRESHOLDS,
} from '../../shared/metric-constants.js';
import { computeInsights, type Insight } from '../insights.js';
import type { P95Label } from '../latency.js';
import {
  latencySummary,
  NO_PERCENTILES,
  type LatencySummary,
  type Percentiles,
} from './latency-summary.js';

/** A badge the tools table shows next to a tool. */
export type ToolBadge =
  'never_used' | 'unregistered' | 'heavy_payload' | 'low_first_call' | 'slow' | 'empty_results';

/** One tool in a view: its counts, rates, latency and badges. */
export interface ToolSummary {
  name: string;
  /** In the latest startup of its project. */
  registered: boolean;
  /** From the latest startup; null when not registered. */
  schema_bytes: number | null;
  calls: number;
  first_call_successes: number;
  first_call_success: FirstCallSuccess;
  /** Calls that were retried. */
  retries: number;
  repeats: number;
  unknown_links: number;
  retry_chains: number;
  outcomes: OutcomeCounts;
  error_rate: number | null;
  empty_rate: number | null;
  response_units: number;
  avg_response_bytes: number | null;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  p95_bucket: P95Label | null;
  latency: LatencySummary;
  /** Registered and no calls in the view. */
  dead: boolean;
  badges: ToolBadge[];
}

/** The latest registered size of each tool name (several projects: the most recent startup). */
export function registeredByName(
  registered: readonly { name: string; schema_bytes: number; startup_id: number }[],
): Map<string, { schema_bytes: number; startup_id: number }> {
  const out = new Map<string, { schema_bytes: number; startup_id: number }>();
  for (const r of registered) {
    const prev = out.get(r.name);
    if (!prev || r.startup_id > prev.startup_id)
      out.set(r.name, { schema_bytes: r.schema_bytes, startup_id: r.startup_id });
  }
  return out;
}

function badgesOf(t: Omit<ToolSummary, 'badges'>, s: Stats): ToolBadge[] {
  const b: ToolBadge[] = [];
  if (t.dead) b.push('never_used');
  if (!t.registered && t.calls > 0) b.push('unregistered');
  if (t.avg_response_bytes !== null && t.avg_response_bytes > HEAVY_PAYLOAD_UNITS)
    b.push('heavy_payload');
  if (t.calls >= INSIGHT_MIN_CALLS) {
    if ((t.first_call_success.rate ?? 1) < THRESHOLDS.firstCallSuccess.medium)
      b.push('low_first_call');
    if ((rate(s.latency[3] ?? 0, s.calls) ?? 0) > THRESHOLDS.slowShare.medium) b.push('slow');
    if ((t.empty_rate ?? 0) > THRESHOLDS.emptyRate.medium) b.push('empty_results');
  }
  return b;
}

/**
 * Per-tool summaries: every tool called in the view plus every registered tool (dead when
 * not called), most called first. `onlyTool` narrows to one name (the `tool` filter).
 */
export function buildToolSummaries(input: {
  stats: readonly StatRow[];
  percentiles: { byTool: ReadonlyMap<string, Percentiles> };
  registered: readonly { name: string; schema_bytes: number; startup_id: number }[];
  onlyTool?: string;
}): { tools: ToolSummary[]; stats: Map<string, Stats> } {
  const stats = groupStats(input.stats, (r) => r.tool);
  const reg = registeredByName(input.registered);
  const names = new Set<string>([...stats.keys(), ...reg.keys()]);
  if (input.onlyTool !== undefined)
    for (const n of [...names]) if (n !== input.onlyTool) names.delete(n);
  const tools: ToolSummary[] = [];
  for (const name of names) {
    const s = stats.get(name) ?? totalStats([]);
    const r = reg.get(name);
    const latency = latencySummary(s, input.percentiles.byTool.get(name) ?? NO_PERCENTILES);
    const t = {
      name,
      registered: r !== undefined,
      schema_bytes: r?.schema_bytes ?? null,
      calls: s.calls,
      first_call_successes: s.first_call_successes,
      first_call_success: firstCallSuccessOf(s),
      retries: s.retries,
      repeats: s.repeats,
      unknown_links: s.unknown_links,
      retry_chains: s.retry_chains,
      outcomes: s.outcomes,
      error_rate: errorRate(s),
      empty_rate: emptyRate(s),
      response_units: s.response_units,
      avg_response_bytes: avgResponse(s),
      p50_ms: latency.p50_ms,
      p95_ms: latency.p95_ms,
      p99_ms: latency.p99_ms,
      p95_bucket: latency.p95_bucket,
      latency,
      dead: r !== undefined && s.calls === 0,
    };
    tools.push({ ...t, badges: badgesOf(t, s) });
  }
  tools.sort((a, b) => b.calls - a.calls || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { tools, stats };
}

/**
 * Insights for a set of tool summaries. `badArgsRuns` (tool → how many of its latest calls in
 * a row were bad-args refusals) lets the bad-arguments insight say it is a streak.
 */
export function insightsOf(
  tools: readonly ToolSummary[],
  stats: ReadonlyMap<string, Stats>,
  badArgsRuns: ReadonlyMap<string, number> = new Map(),
): Insight[] {
  return computeInsights(
    tools.map((t) => ({
      name: t.name,
      calls: t.calls,
      first_call_successes: t.first_call_successes,
      empty: t.outcomes.empty,
      slow: stats.get(t.name)?.latency[3] ?? 0,
      response_units: t.response_units,
      registered: t.registered,
      schema_bytes: t.schema_bytes,
      dead: t.dead,
      crashed: t.outcomes.crashed,
      tool_errors: t.outcomes.tool_error,
      bad_args: t.outcomes.bad_args,
      latest_bad_args_run: badArgsRuns.get(t.name) ?? 0,
    })),
  );
}
