/**
 * Pure builders for every metrics response: the store hands over rows, these fold them into
 * the shapes of docs/api.md "Metrics routes". Browser-safe.
 */
import {
  avgResponse,
  emptyRate,
  errorRate,
  errorsOf,
  firstCallSuccessOf,
  groupStats,
  latencyOf,
  OUTCOME_CLASSES,
  outcomeClass,
  rate,
  totalStats,
  type FirstCallSuccess,
  type OutcomeClass,
  type OutcomeCounts,
  type StatRow,
  type Stats,
} from './aggregate.js';
import { buildChains, type Chain, type ChainMember } from './chains.js';
import { HEAVY_PAYLOAD_UNITS, INSIGHT_MIN_CALLS, THRESHOLDS } from './constants.js';
import { computeInsights, type Insight } from './insights.js';
import {
  histogramOf,
  latencyBucketIndex,
  p95Label,
  percentiles,
  type LatencyBuckets,
  type P95Label,
} from './latency.js';
import { LINK, LINK_KINDS, type LinkKind } from './links.js';
import { costUsd, sizeBucket, sizeHistogram, tokensOf, type SizeBucketCount } from './sizes.js';

/** Exact latency block. */
export interface LatencySummary {
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  p95_bucket: P95Label | null;
  avg_ms: number | null;
  buckets: LatencyBuckets;
}

export type ToolBadge =
  'never_used' | 'unregistered' | 'heavy_payload' | 'low_first_call' | 'slow' | 'empty_results';

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

/** Exact p50/p95/p99 (nearest rank); null without calls. */
export interface Percentiles {
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}

const NO_PERCENTILES: Percentiles = { p50_ms: null, p95_ms: null, p99_ms: null };

function latencySummary(s: Stats, p: Percentiles): LatencySummary {
  return {
    p50_ms: p.p50_ms,
    p95_ms: p.p95_ms,
    p99_ms: p.p99_ms,
    p95_bucket: p95Label(p.p95_ms),
    avg_ms: rate(s.duration_ms_total, s.calls),
    buckets: latencyOf(s),
  };
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

/** Insights for a set of tool summaries. */
export function insightsOf(
  tools: readonly ToolSummary[],
  stats: ReadonlyMap<string, Stats>,
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
    })),
  );
}

/** Tokens and cost of a view: responses, plus each session's schema loaded once. */
export interface CostSummary {
  usd_per_million_tokens: number;
  response_units: number;
  avg_response_units: number | null;
  response_tokens: number;
  response_cost_usd: number;
  /** Sum over sessions of their latest startup's total schema size. */
  schema_units: number;
  schema_tokens: number;
  schema_cost_usd: number;
  tokens: number;
  cost_usd: number;
  sessions: number;
  cost_per_session_usd: number | null;
}

export function costOf(
  s: Stats,
  schema: { sessions: number; schema_bytes: number },
  usdPerMillion: number,
): CostSummary {
  const responseCost = costUsd(s.response_units, usdPerMillion);
  const schemaCost = costUsd(schema.schema_bytes, usdPerMillion);
  return {
    usd_per_million_tokens: usdPerMillion,
    response_units: s.response_units,
    avg_response_units: avgResponse(s),
    response_tokens: tokensOf(s.response_units),
    response_cost_usd: responseCost,
    schema_units: schema.schema_bytes,
    schema_tokens: tokensOf(schema.schema_bytes),
    schema_cost_usd: schemaCost,
    tokens: tokensOf(s.response_units + schema.schema_bytes),
    cost_usd: responseCost + schemaCost,
    sessions: schema.sessions,
    cost_per_session_usd:
      schema.sessions > 0 ? (responseCost + schemaCost) / schema.sessions : null,
  };
}

export interface Summary {
  calls: number;
  sessions: number;
  retries: number;
  repeats: number;
  unknown_links: number;
  retry_chains: number;
  first_call_success: FirstCallSuccess;
  outcomes: OutcomeCounts;
  errors: number;
  error_rate: number | null;
  empty_rate: number | null;
  latency: LatencySummary;
  cost: CostSummary;
  registered_tools: number;
  /** Total schema size of the registered tools (latest startup per project). */
  schema_bytes: number;
  dead_tools: number;
  unregistered_tools: number;
  clients: number;
  insights: { high: number; medium: number; low: number };
  tools: ToolSummary[];
}

/** The `/api/summary` body. */
export function buildSummary(input: {
  stats: readonly StatRow[];
  percentiles: { overall: Percentiles; byTool: ReadonlyMap<string, Percentiles> };
  registered: readonly { name: string; schema_bytes: number; startup_id: number }[];
  sessions: number;
  schema: { sessions: number; schema_bytes: number };
  usdPerMillion: number;
  onlyTool?: string;
}): Summary {
  const { tools, stats } = buildToolSummaries(input);
  const s = totalStats(input.stats);
  const insights = insightsOf(tools, stats);
  const reg = registeredByName(input.registered);
  const clients = new Set(input.stats.filter((r) => r.calls > 0).map((r) => r.client));
  return {
    calls: s.calls,
    sessions: input.sessions,
    retries: s.retries,
    repeats: s.repeats,
    unknown_links: s.unknown_links,
    retry_chains: s.retry_chains,
    first_call_success: firstCallSuccessOf(s),
    outcomes: s.outcomes,
    errors: errorsOf(s),
    error_rate: errorRate(s),
    empty_rate: emptyRate(s),
    latency: latencySummary(s, input.percentiles.overall),
    cost: costOf(s, input.schema, input.usdPerMillion),
    registered_tools: [...reg.keys()].filter(
      (n) => input.onlyTool === undefined || n === input.onlyTool,
    ).length,
    schema_bytes: [...reg.entries()]
      .filter(([n]) => input.onlyTool === undefined || n === input.onlyTool)
      .reduce((a, [, r]) => a + r.schema_bytes, 0),
    dead_tools: tools.filter((t) => t.dead).length,
    unregistered_tools: tools.filter((t) => !t.registered && t.calls > 0).length,
    clients: clients.size,
    insights: {
      high: insights.filter((i) => i.severity === 'high').length,
      medium: insights.filter((i) => i.severity === 'medium').length,
      low: insights.filter((i) => i.severity === 'low').length,
    },
    tools,
  };
}

/** A call with its stored facts, as stored. */
export interface FactCall extends ChainMember {
  project_id: number;
  client_name: string;
  started_at: string;
  response_bytes: number;
  received_ms: number;
  prev_link: number;
  fcs: number;
  prev_tool: string | null;
}

/** A call as the API shows it: what it is, and why it is or is not a first-call success. */
export interface CallView {
  id: number;
  project_id: number;
  session_id: string;
  client_name: string;
  tool_name: string;
  started_at: string;
  started_ms: number;
  duration_ms: number;
  outcome: string;
  outcome_class: OutcomeClass;
  is_empty: boolean;
  response_bytes: number;
  args_hash: string;
  received_ms: number;
  /** Link to the next same-tool call in the session. */
  link: LinkKind;
  /** Link from the previous same-tool call. */
  prev_link: LinkKind;
  first_call_success: boolean;
  retried: boolean;
  /** The next same-tool call repeated the same arguments (paging/polling). */
  repeated: boolean;
  /** The next same-tool call could not be compared (an unhashable `000000000000`). */
  unknown_link: boolean;
  /** This call is a retry of the previous same-tool call. */
  retry_of_previous: boolean;
  repeat_of_previous: boolean;
  /** Id of the retry chain (its first call) this call belongs to, or null. */
  chain_id: number | null;
  prev_tool: string | null;
  /** Gap to the next same-tool call when known (session views). */
  next_gap_ms: number | null;
  latency_bucket: number;
  size_bucket: number;
  reason: string;
}

const OUTCOME_WORDS: Record<string, string> = {
  bad_args: 'bad_args (the arguments failed validation; the handler never ran)',
  tool_error: 'tool_error (the tool ran and returned isError)',
  crashed: 'crashed (the tool threw)',
};

const seconds = (ms: number): string =>
  ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/** Why a call is or is not a first-call success, in one sentence. */
export function reasonOf(c: FactCall, nextGapMs: number | null): string {
  const oc = OUTCOME_CLASSES[outcomeClass(c.outcome, c.is_empty)]!;
  const gap = nextGapMs === null ? '' : ` ${seconds(nextGapMs)} later`;
  const retried = c.link === LINK.retry;
  const retryText = `retried: the next ${c.tool_name} call in this session started${gap || ' within 30 s'} with different arguments`;
  if (oc === 'ok' && !retried) {
    const note =
      c.link === LINK.repeat
        ? ` The next ${c.tool_name} call${gap} repeated the same arguments — paging or polling, not a retry.`
        : c.link === LINK.unknown
          ? ` The next ${c.tool_name} call${gap} could not be compared (arguments not hashable), so it is not counted as a retry.`
          : '';
    return `First-call success: ok, not empty, and not retried.${note}`;
  }
  const why: string[] = [];
  if (oc === 'empty') why.push('ok but the result was empty');
  else if (oc !== 'ok') why.push(`outcome ${OUTCOME_WORDS[oc] ?? oc}`);
  if (retried) why.push(retryText);
  return `Not a first-call success: ${why.join('; and ')}.`;
}

/** The API view of one call; `nextGapMs` is the start-to-start gap to the next same-tool call. */
export function callView(c: FactCall, nextGapMs: number | null = null): CallView {
  return {
    id: c.id,
    project_id: c.project_id,
    session_id: c.session_id,
    client_name: c.client_name,
    tool_name: c.tool_name,
    started_at: c.started_at,
    started_ms: c.started_ms,
    duration_ms: c.duration_ms,
    outcome: c.outcome,
    outcome_class: OUTCOME_CLASSES[outcomeClass(c.outcome, c.is_empty)]!,
    is_empty: Boolean(c.is_empty),
    response_bytes: c.response_bytes,
    args_hash: c.args_hash,
    received_ms: c.received_ms,
    link: LINK_KINDS[c.link] ?? 'none',
    prev_link: LINK_KINDS[c.prev_link] ?? 'none',
    first_call_success: c.fcs === 1,
    retried: c.link === LINK.retry,
    repeated: c.link === LINK.repeat,
    unknown_link: c.link === LINK.unknown,
    retry_of_previous: c.prev_link === LINK.retry,
    repeat_of_previous: c.prev_link === LINK.repeat,
    chain_id: c.chain ? c.run_id : null,
    prev_tool: c.prev_tool,
    next_gap_ms: nextGapMs,
    latency_bucket: latencyBucketIndex(c.duration_ms),
    size_bucket: sizeBucket(c.response_bytes),
    reason: reasonOf(c, nextGapMs),
  };
}

/** Views of a session's calls (in session order), with gaps to each next same-tool call. */
export function sessionCallViews(calls: readonly FactCall[]): CallView[] {
  const nextGap = new Map<number, number>();
  const lastByTool = new Map<string, FactCall>();
  for (const c of calls) {
    const prev = lastByTool.get(c.tool_name);
    if (prev) nextGap.set(prev.id, c.started_ms - prev.started_ms);
    lastByTool.set(c.tool_name, c);
  }
  return calls.map((c) => callView(c, nextGap.get(c.id) ?? null));
}

/** A chain with its calls' views. */
export interface ChainView extends Chain {
  project_id: number;
  client_name: string;
  calls: CallView[];
}

/** Chains of ordered members, each with its calls. */
export function chainViews(members: readonly FactCall[]): ChainView[] {
  const byId = new Map(members.map((m) => [m.id, m]));
  const gaps = new Map<number, number>();
  const lastByRun = new Map<number, FactCall>();
  for (const m of members) {
    const prev = lastByRun.get(m.run_id);
    if (prev) gaps.set(prev.id, m.started_ms - prev.started_ms);
    lastByRun.set(m.run_id, m);
  }
  return buildChains(members).map((c) => {
    const first = byId.get(c.id) ?? byId.get(c.call_ids[0]!)!;
    return {
      ...c,
      project_id: first.project_id,
      client_name: first.client_name,
      calls: c.call_ids.map((id) => callView(byId.get(id)!, gaps.get(id) ?? null)),
    };
  });
}

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

/** Size histogram from `[tool, bucket, count, units]` rows, optionally for one tool. */
export function sizeHistogramOf(
  rows: readonly (readonly [string, number, number, number])[],
): SizeBucketCount[] {
  const m = new Map<number, { count: number; units: number }>();
  for (const [, b, n, u] of rows) {
    const e = m.get(b) ?? { count: 0, units: 0 };
    m.set(b, { count: e.count + n, units: e.units + u });
  }
  return sizeHistogram(m);
}

/** Size histogram of individual values (schema sizes of registered tools, durations). */
export function valueHistogram(values: readonly number[]): SizeBucketCount[] {
  const m = new Map<number, { count: number; units: number }>();
  for (const v of values) {
    const b = sizeBucket(v);
    const e = m.get(b) ?? { count: 0, units: 0 };
    m.set(b, { count: e.count + 1, units: e.units + v });
  }
  return sizeHistogram(m);
}

/** Log-bucket histogram of an exact `[value, count]` histogram (durations on the tool page). */
export function logHistogramOfCounts(
  hist: readonly (readonly [number, number])[],
): SizeBucketCount[] {
  const m = new Map<number, { count: number; units: number }>();
  for (const [v, n] of hist) {
    const b = sizeBucket(v);
    const e = m.get(b) ?? { count: 0, units: 0 };
    m.set(b, { count: e.count + n, units: e.units + v * n });
  }
  return sizeHistogram(m);
}

export type { Insight, SizeBucketCount, Stats };
