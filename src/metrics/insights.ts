/**
 * Insights with the hosted thresholds (wire-format §4): per tool, only for tools with at least
 * 20 calls in the view (dead tools excepted), sorted by severity, then size, then tool name.
 */
import { INSIGHT_MIN_CALLS, THRESHOLDS } from '../shared/metric-constants.js';

export type Severity = 'high' | 'medium' | 'low';
export type InsightKind =
  'low_first_call_success' | 'empty_results' | 'slow_calls' | 'heavy_payload' | 'dead_tool';

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
}

export interface Insight {
  /** Stable id, e.g. `low_first_call_success:search`. */
  id: string;
  kind: InsightKind;
  severity: Severity;
  tool: string;
  /** The measured value: a rate (0..1) or average units; null for dead tools. */
  value: number | null;
  /** The threshold crossed (the high one when severity is high). */
  threshold: number | null;
  /** Calls of the tool in the view (the denominator). */
  calls: number;
  /**
   * The size used to order insights of equal severity: the calls concerned (failing first
   * calls, empties, slow calls; every call for heavy payloads) or, for a dead tool, its
   * schema bytes.
   */
  size: number;
  message: string;
}

const SEVERITY_ORDER: Record<Severity, number> = { high: 0, medium: 1, low: 2 };

const pct = (r: number): string => `${(r * 100).toFixed(1)}%`;

/** Below-threshold check: `value < medium` → medium, `value < high` → high. */
function below(value: number, t: { medium: number; high: number }): Severity | null {
  if (value < t.high) return 'high';
  if (value < t.medium) return 'medium';
  return null;
}

/** Above-threshold check: `value > medium` → medium, `value > high` → high. */
function above(value: number, t: { medium: number; high: number }): Severity | null {
  if (value > t.high) return 'high';
  if (value > t.medium) return 'medium';
  return null;
}

/** Every insight for the given tools, sorted. */
export function computeInsights(tools: readonly InsightInput[]): Insight[] {
  const out: Insight[] = [];
  for (const t of tools) {
    if (t.dead) {
      out.push({
        id: `dead_tool:${t.name}`,
        kind: 'dead_tool',
        severity: 'low',
        tool: t.name,
        value: null,
        threshold: null,
        calls: 0,
        size: t.schema_bytes ?? 0,
        message: `${t.name} is registered but was never called${
          t.schema_bytes
            ? ` — its schema costs ${t.schema_bytes.toLocaleString('en-US')} units in every session`
            : ''
        }`,
      });
      continue;
    }
    if (t.calls < INSIGHT_MIN_CALLS) continue;
    const fcs = t.first_call_successes / t.calls;
    const fcsSev = below(fcs, THRESHOLDS.firstCallSuccess);
    if (fcsSev) {
      out.push({
        id: `low_first_call_success:${t.name}`,
        kind: 'low_first_call_success',
        severity: fcsSev,
        tool: t.name,
        value: fcs,
        threshold: THRESHOLDS.firstCallSuccess[fcsSev === 'high' ? 'high' : 'medium'],
        calls: t.calls,
        size: t.calls - t.first_call_successes,
        message: `${t.name}: first-call success ${pct(fcs)} (${t.first_call_successes} of ${t.calls}) is below ${pct(
          THRESHOLDS.firstCallSuccess[fcsSev === 'high' ? 'high' : 'medium'],
        )}`,
      });
    }
    const empty = t.empty / t.calls;
    const emptySev = above(empty, THRESHOLDS.emptyRate);
    if (emptySev) {
      const th = THRESHOLDS.emptyRate[emptySev === 'high' ? 'high' : 'medium'];
      out.push({
        id: `empty_results:${t.name}`,
        kind: 'empty_results',
        severity: emptySev,
        tool: t.name,
        value: empty,
        threshold: th,
        calls: t.calls,
        size: t.empty,
        message: `${t.name}: ${pct(empty)} of calls (${t.empty} of ${t.calls}) returned empty results, above ${pct(th)}`,
      });
    }
    const slow = t.slow / t.calls;
    const slowSev = above(slow, THRESHOLDS.slowShare);
    if (slowSev) {
      const th = THRESHOLDS.slowShare[slowSev === 'high' ? 'high' : 'medium'];
      out.push({
        id: `slow_calls:${t.name}`,
        kind: 'slow_calls',
        severity: slowSev,
        tool: t.name,
        value: slow,
        threshold: th,
        calls: t.calls,
        size: t.slow,
        message: `${t.name}: ${pct(slow)} of calls (${t.slow} of ${t.calls}) took 2 s or more, above ${pct(th)}`,
      });
    }
    const avg = t.response_units / t.calls;
    const heavySev = above(avg, THRESHOLDS.avgResponse);
    if (heavySev) {
      const th = THRESHOLDS.avgResponse[heavySev === 'high' ? 'high' : 'medium'];
      out.push({
        id: `heavy_payload:${t.name}`,
        kind: 'heavy_payload',
        severity: heavySev,
        tool: t.name,
        value: avg,
        threshold: th,
        calls: t.calls,
        size: t.calls,
        message: `${t.name}: average response ${Math.round(avg).toLocaleString('en-US')} units (≈${Math.round(
          avg / 4,
        ).toLocaleString('en-US')} tokens) is above ${th.toLocaleString('en-US')}`,
      });
    }
  }
  return out.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      b.size - a.size ||
      (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0) ||
      (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0),
  );
}
