/**
 * Insights, ranked by impact (calls affected × severity weight × the kind's harm per call), so
 * the worst tool comes first at any sample size. Two families:
 * - the hosted thresholds (wire-format §4): first-call success, empties, slow calls, heavy
 *   payloads, only for tools with at least 20 calls in the view, and dead tools;
 * - failures at any sample size, with their confidence said ("14 of 14"): crashes, tool
 *   errors, bad arguments (failure-insights.ts).
 * The kind is an open string: other modules may draw more kinds and rank them here.
 */
import { INSIGHT_MIN_CALLS, THRESHOLDS } from '../shared/metric-constants.js';
import { failureInsights, type FailureInsightKind } from './failure-insights.js';

export type Severity = 'high' | 'medium' | 'low';

/** The hosted-threshold kinds. */
export type ThresholdInsightKind =
  'low_first_call_success' | 'empty_results' | 'slow_calls' | 'heavy_payload' | 'dead_tool';

/** Every kind drawn today; other modules may add more (the type stays open to them). */
export type InsightKind = ThresholdInsightKind | FailureInsightKind | (string & {});

/** What insights need to know about one tool in the current view. */
export interface InsightInput {
  name: string;
  calls: number;
  first_call_successes: number;
  empty: number;
  /** Calls taking ≥ 2 s. */
  slow: number;
  response_units: number;
  registered: boolean;
  schema_bytes: number | null;
  dead: boolean;
  /** Calls whose tool threw (outcome `crashed`). */
  crashed?: number;
  /** Calls answered with `isError` (outcome `tool_error`). */
  tool_errors?: number;
  /** Calls refused for their arguments (outcome `bad_args`). */
  bad_args?: number;
  /** How many of the tool's most recent calls in a row were bad-args refusals. */
  latest_bad_args_run?: number;
}

export interface Insight {
  /** Stable id, e.g. `low_first_call_success:search`. */
  id: string;
  kind: InsightKind;
  severity: Severity;
  tool: string;
  /** The measured value: a rate (0..1) or average units; null for dead tools. */
  value: number | null;
  /** The threshold crossed (the high one when severity is high); null for failure kinds. */
  threshold: number | null;
  /** Calls of the tool in the view (the denominator). */
  calls: number;
  /** Calls the insight is about (crashes, failed first calls, empties…); 0 for a dead tool. */
  affected: number;
  /**
   * Breaks ties between equal impacts: the calls concerned or, for a dead tool, its schema
   * bytes.
   */
  size: number;
  /** The rank: affected × severity weight × the kind's harm per call. */
  impact: number;
  /** One line with the counts: "sync_calendar crashed on 14 of 14 calls". */
  title: string;
  /** The sentence under the title: what it means, never a repeat of the counts. */
  detail: string;
  /** Title and reason in one sentence, for plain-text reports. */
  message: string;
}

/** How much one severity level weighs in the impact. */
export const SEVERITY_WEIGHT: Record<Severity, number> = { high: 3, medium: 2, low: 1 };

/**
 * How much one affected call hurts, by kind: a crash leaves the client with nothing, an error
 * or a refusal at least says why, an empty or slow answer still answers. Kinds not listed
 * weigh 1.
 */
export const KIND_HARM: Readonly<Record<string, number>> = {
  crashes: 4,
  error_rate: 3,
  bad_args_streak: 2,
  low_first_call_success: 1,
  empty_results: 1,
  slow_calls: 1,
  heavy_payload: 0.5,
  dead_tool: 0,
};

const SEVERITY_ORDER: Record<Severity, number> = { high: 0, medium: 1, low: 2 };

const pct = (r: number): string => `${(r * 100).toFixed(1)}%`;
const int = (n: number): string => Math.round(n).toLocaleString('en-US');
const share = (n: number, of: number): string =>
  n === of ? `${n} of ${n}` : `${n} of ${of} (${Math.round((n / of) * 100)}%)`;

/** Below-threshold check: `value < medium` → medium, `value < high` → high. */
function below(value: number, t: { medium: number; high: number }): 'high' | 'medium' | null {
  if (value < t.high) return 'high';
  if (value < t.medium) return 'medium';
  return null;
}

/** Above-threshold check: `value > medium` → medium, `value > high` → high. */
function above(value: number, t: { medium: number; high: number }): 'high' | 'medium' | null {
  if (value > t.high) return 'high';
  if (value > t.medium) return 'medium';
  return null;
}

type Unranked = Omit<Insight, 'impact'>;

function deadInsight(t: InsightInput): Unranked {
  return {
    id: `dead_tool:${t.name}`,
    kind: 'dead_tool',
    severity: 'low',
    tool: t.name,
    value: null,
    threshold: null,
    calls: 0,
    affected: 0,
    size: t.schema_bytes ?? 0,
    title: `${t.name} is registered but was never called`,
    detail: t.schema_bytes
      ? `Its schema costs ${int(t.schema_bytes)} UTF-16 units (≈${int(t.schema_bytes / 4)} tokens) in every session all the same.`
      : 'Drop it, or say in its description when the model should use it.',
    message: `${t.name} is registered but was never called${
      t.schema_bytes ? ` — its schema costs ${int(t.schema_bytes)} units in every session` : ''
    }`,
  };
}

/** The hosted-threshold insights of a tool with at least {@link INSIGHT_MIN_CALLS} calls. */
function thresholdInsights(t: InsightInput): Unranked[] {
  const out: Unranked[] = [];
  const base = { tool: t.name, calls: t.calls };
  const fcs = t.first_call_successes / t.calls;
  const fcsSev = below(fcs, THRESHOLDS.firstCallSuccess);
  if (fcsSev) {
    const th = THRESHOLDS.firstCallSuccess[fcsSev];
    out.push({
      ...base,
      id: `low_first_call_success:${t.name}`,
      kind: 'low_first_call_success',
      severity: fcsSev,
      value: fcs,
      threshold: th,
      affected: t.calls - t.first_call_successes,
      size: t.calls - t.first_call_successes,
      title: `${t.name} succeeded first time on only ${share(t.first_call_successes, t.calls)} calls`,
      detail: `First-call success under ${pct(th)}: the model has to retry, or gives up.`,
      message: `${t.name}: first-call success ${pct(fcs)} (${t.first_call_successes} of ${t.calls}) is below ${pct(th)}`,
    });
  }
  const empty = t.empty / t.calls;
  const emptySev = above(empty, THRESHOLDS.emptyRate);
  if (emptySev) {
    const th = THRESHOLDS.emptyRate[emptySev];
    out.push({
      ...base,
      id: `empty_results:${t.name}`,
      kind: 'empty_results',
      severity: emptySev,
      value: empty,
      threshold: th,
      affected: t.empty,
      size: t.empty,
      title: `${t.name} answered with nothing on ${share(t.empty, t.calls)} calls`,
      detail: `More than ${pct(th)} empty: an empty answer sends the model looking elsewhere.`,
      message: `${t.name}: ${pct(empty)} of calls (${t.empty} of ${t.calls}) returned empty results, above ${pct(th)}`,
    });
  }
  const slow = t.slow / t.calls;
  const slowSev = above(slow, THRESHOLDS.slowShare);
  if (slowSev) {
    const th = THRESHOLDS.slowShare[slowSev];
    out.push({
      ...base,
      id: `slow_calls:${t.name}`,
      kind: 'slow_calls',
      severity: slowSev,
      value: slow,
      threshold: th,
      affected: t.slow,
      size: t.slow,
      title: `${t.name} took 2 s or more on ${share(t.slow, t.calls)} calls`,
      detail: `More than ${pct(th)} slow: every slow call holds up the whole conversation.`,
      message: `${t.name}: ${pct(slow)} of calls (${t.slow} of ${t.calls}) took 2 s or more, above ${pct(th)}`,
    });
  }
  const avg = t.response_units / t.calls;
  const heavySev = above(avg, THRESHOLDS.avgResponse);
  if (heavySev) {
    const th = THRESHOLDS.avgResponse[heavySev];
    out.push({
      ...base,
      id: `heavy_payload:${t.name}`,
      kind: 'heavy_payload',
      severity: heavySev,
      value: avg,
      threshold: th,
      affected: t.calls,
      size: t.calls,
      title: `${t.name} answers with ≈${int(avg / 4)} tokens per call over ${int(t.calls)} calls`,
      detail: `An average of ${int(avg)} UTF-16 units, above ${int(th)}: each answer fills the model's context.`,
      message: `${t.name}: average response ${int(avg)} units (≈${int(avg / 4)} tokens) is above ${int(th)}`,
    });
  }
  return out;
}

/** The impact of an insight (see {@link Insight.impact}). */
export function impactOf(i: Pick<Insight, 'affected' | 'severity' | 'kind'>): number {
  return i.affected * SEVERITY_WEIGHT[i.severity] * (KIND_HARM[i.kind] ?? 1);
}

/** Ranks insights of any kind: impact, then severity, then size, then tool and kind. */
export function rankInsights(insights: readonly Unranked[]): Insight[] {
  return insights
    .map((i) => ({ ...i, impact: impactOf(i) }))
    .sort(
      (a, b) =>
        b.impact - a.impact ||
        SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
        b.size - a.size ||
        (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0) ||
        (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0),
    );
}

/** Every insight for the given tools, ranked. */
export function computeInsights(tools: readonly InsightInput[]): Insight[] {
  const out: Unranked[] = [];
  for (const t of tools) {
    if (t.dead) {
      out.push(deadInsight(t));
      continue;
    }
    out.push(...failureInsights(t));
    if (t.calls >= INSIGHT_MIN_CALLS) out.push(...thresholdInsights(t));
  }
  return rankInsights(out);
}

/**
 * An insight drawn elsewhere (the content insight of src/metrics/error-insights.ts): its
 * counts, without a title of its own yet.
 */
export interface ExternalInsight {
  id: string;
  kind: string;
  severity: Severity;
  tool: string;
  value: number | null;
  threshold: number | null;
  calls: number;
  /** The calls it is about. */
  size: number;
  message: string;
}

/**
 * Ranked insights with others placed among them by the same impact: an external insight's
 * message is its title, `size` its affected calls; its own fields (an error text, an example
 * call) stay on it.
 */
export function withContentInsights<E extends ExternalInsight>(
  ranked: readonly Insight[],
  extra: readonly E[],
): Insight[] {
  // The external fields (an error text, an example call) ride along on each object.
  return rankInsights([
    ...ranked,
    ...extra.map((e) => ({
      ...e,
      affected: e.size,
      title: e.message,
      detail: `The same error text stood behind ${e.size} of ${e.calls} first calls: fix what it names, or say it in the tool's description.`,
    })),
  ]);
}
