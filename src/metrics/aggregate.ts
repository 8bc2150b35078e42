/**
 * Additive statistics. The store returns rows keyed by (tool, client, outcome class, link,
 * chain head) from its daily rollup and from raw calls; everything on the summary, tool and
 * client pages is a pure fold over those rows.
 */
import { OUTCOME_CLASSES, type OutcomeCounts } from '../shared/outcomes.js';
import { LINK } from './links.js';
import { latencyBuckets, type LatencyBuckets } from './latency.js';

/** Outcome class code 0–4 of a call (`is_empty` only counts with `ok`). */
export function outcomeClass(outcome: string, isEmpty: boolean | number): number {
  switch (outcome) {
    case 'ok':
      return isEmpty ? 1 : 0;
    case 'bad_args':
      return 2;
    case 'tool_error':
      return 3;
    default:
      return 4;
  }
}

/** One aggregated row as the store returns it. */
export interface StatRow {
  tool: string;
  client: string;
  /** Outcome class code (see {@link OUTCOME_CLASSES}). */
  oc: number;
  /** Link code to the next same-tool call. */
  link: number;
  /** 1 for the first call of a retry chain. */
  head: number;
  calls: number;
  /** Sum of response_bytes (UTF-16 units). */
  units: number;
  /** Sum of duration_ms. */
  duration: number;
  /** Latency bucket counts (<100, <500, <2000, ≥2000). */
  l0: number;
  l1: number;
  l2: number;
  l3: number;
}

/** Folded statistics for any set of calls. */
export interface Stats {
  calls: number;
  outcomes: OutcomeCounts;
  first_call_successes: number;
  /** Calls that were retried (link to the next same-tool call is a retry). */
  retries: number;
  repeats: number;
  unknown_links: number;
  retry_chains: number;
  response_units: number;
  duration_ms_total: number;
  latency: number[];
}

export function emptyStats(): Stats {
  return {
    calls: 0,
    outcomes: { ok: 0, empty: 0, bad_args: 0, tool_error: 0, crashed: 0 },
    first_call_successes: 0,
    retries: 0,
    repeats: 0,
    unknown_links: 0,
    retry_chains: 0,
    response_units: 0,
    duration_ms_total: 0,
    latency: [0, 0, 0, 0],
  };
}

/** Adds one row into `s`. */
export function addRow(s: Stats, r: StatRow): Stats {
  s.calls += r.calls;
  s.outcomes[OUTCOME_CLASSES[r.oc] ?? 'crashed'] += r.calls;
  if (r.oc === 0 && r.link !== LINK.retry) s.first_call_successes += r.calls;
  if (r.link === LINK.retry) s.retries += r.calls;
  else if (r.link === LINK.repeat) s.repeats += r.calls;
  else if (r.link === LINK.unknown) s.unknown_links += r.calls;
  if (r.head) s.retry_chains += r.calls;
  s.response_units += r.units;
  s.duration_ms_total += r.duration;
  s.latency[0]! += r.l0;
  s.latency[1]! += r.l1;
  s.latency[2]! += r.l2;
  s.latency[3]! += r.l3;
  return s;
}

/** Adds `b` into `a`. */
export function addStats(a: Stats, b: Stats): Stats {
  a.calls += b.calls;
  for (const k of OUTCOME_CLASSES) a.outcomes[k] += b.outcomes[k];
  a.first_call_successes += b.first_call_successes;
  a.retries += b.retries;
  a.repeats += b.repeats;
  a.unknown_links += b.unknown_links;
  a.retry_chains += b.retry_chains;
  a.response_units += b.response_units;
  a.duration_ms_total += b.duration_ms_total;
  for (let i = 0; i < 4; i++) a.latency[i]! += b.latency[i]!;
  return a;
}

/** Folds rows into one {@link Stats} per key. */
export function groupStats(
  rows: Iterable<StatRow>,
  key: (r: StatRow) => string,
): Map<string, Stats> {
  const out = new Map<string, Stats>();
  for (const r of rows) {
    const k = key(r);
    let s = out.get(k);
    if (!s) out.set(k, (s = emptyStats()));
    addRow(s, r);
  }
  return out;
}

/** Folds every row into one {@link Stats}. */
export function totalStats(rows: Iterable<StatRow>): Stats {
  const s = emptyStats();
  for (const r of rows) addRow(s, r);
  return s;
}

/** A ratio, or null when the denominator is 0 (the UI shows a dash). */
export const rate = (num: number, den: number): number | null => (den > 0 ? num / den : null);

/** The first-call success block every API shape uses: numerator and denominator always present. */
export interface FirstCallSuccess {
  rate: number | null;
  successes: number;
  calls: number;
}

export const firstCallSuccessOf = (s: Stats): FirstCallSuccess => ({
  rate: rate(s.first_call_successes, s.calls),
  successes: s.first_call_successes,
  calls: s.calls,
});

/** Errors: bad_args + tool_error + crashed. Empties are not errors. */
export const errorsOf = (s: Stats): number =>
  s.outcomes.bad_args + s.outcomes.tool_error + s.outcomes.crashed;

export const errorRate = (s: Stats): number | null => rate(errorsOf(s), s.calls);
export const emptyRate = (s: Stats): number | null => rate(s.outcomes.empty, s.calls);
export const slowShare = (s: Stats): number | null => rate(s.latency[3] ?? 0, s.calls);
export const avgResponse = (s: Stats): number | null => rate(s.response_units, s.calls);
export const latencyOf = (s: Stats): LatencyBuckets => latencyBuckets(s.latency);
