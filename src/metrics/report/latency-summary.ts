/** The exact latency block every summary carries, and the percentiles it is built from. */
import { latencyOf, rate, type Stats } from '../aggregate.js';
import { p95Label, type LatencyBuckets, type P95Label } from '../latency.js';

/** Exact latency block. */
export interface LatencySummary {
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  p95_bucket: P95Label | null;
  avg_ms: number | null;
  buckets: LatencyBuckets;
}

/** Exact p50/p95/p99 (nearest rank); null without calls. */
export interface Percentiles {
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}

/** Percentiles of a view without calls. */
export const NO_PERCENTILES: Percentiles = { p50_ms: null, p95_ms: null, p99_ms: null };

/** The latency block of a stats fold with its exact percentiles. */
export function latencySummary(s: Stats, p: Percentiles): LatencySummary {
  return {
    p50_ms: p.p50_ms,
    p95_ms: p.p95_ms,
    p99_ms: p.p99_ms,
    p95_bucket: p95Label(p.p95_ms),
    avg_ms: rate(s.duration_ms_total, s.calls),
    buckets: latencyOf(s),
  };
}
