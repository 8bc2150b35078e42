/** Exact nearest-rank percentiles read through a fine histogram, then one bucket's values. */
import {
  fineBucketRange,
  locateRank,
  mergeHistograms,
  valueAtRank,
} from '../../../metrics/latency.js';

/** Exact p50/p95/p99 (nearest rank). */
export interface Percentiles {
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}
/** The percentiles computed, with their keys. */
export const PS = [
  ['p50_ms', 0.5],
  ['p95_ms', 0.95],
  ['p99_ms', 0.99],
] as const;
/** Percentiles of a view without calls. */
export const NO_PERCENTILES: Percentiles = { p50_ms: null, p95_ms: null, p99_ms: null };

/**
 * Exact percentiles from a fine histogram (`[bucket, count]` sorted): locate each rank's
 * bucket, then read that bucket's exact `[duration, count]` values.
 */
export function pick(
  fine: readonly (readonly [number, number])[],
  valuesIn: (lo: number, hi: number) => [number, number][],
  ps: readonly number[] = [0.5, 0.95, 0.99],
  rangeOf: (bucket: number) => [number, number] = fineBucketRange,
): Percentiles {
  const out: Percentiles = { ...NO_PERCENTILES };
  const cache = new Map<number, [number, number][]>();
  for (const [key, p] of PS) {
    if (!ps.includes(p)) continue;
    const at = locateRank(fine, p);
    if (!at) continue;
    let values = cache.get(at.bucket);
    if (!values) {
      const [lo, hi] = rangeOf(at.bucket);
      cache.set(at.bucket, (values = mergeHistograms([valuesIn(lo, hi)])));
    }
    out[key] = valueAtRank(values, at.rank);
  }
  return out;
}
