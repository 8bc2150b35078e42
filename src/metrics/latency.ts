/** Exact percentiles and the hosted four-bucket latency distribution (wire-format §4). */

/** The hosted product's latency buckets: < 100 ms, < 500 ms, < 2 s, ≥ 2 s. */
export const LATENCY_BUCKETS = [
  { key: 'under_100', label: '<100ms', upper_ms: 100 },
  { key: 'under_500', label: '<500ms', upper_ms: 500 },
  { key: 'under_2000', label: '<2s', upper_ms: 2_000 },
  { key: 'over_2000', label: '≥2s', upper_ms: null },
] as const;

export type LatencyBucketKey = (typeof LATENCY_BUCKETS)[number]['key'];
export type LatencyBuckets = Record<LatencyBucketKey, number>;

/**
 * The hosted p95 label: the upper edge of the bucket the p95 falls in (`100ms`, `500ms`,
 * `2s`); the open top bucket has no upper edge and reads `>2s`.
 */
export const P95_LABELS = ['100ms', '500ms', '2s', '>2s'] as const;
export type P95Label = (typeof P95_LABELS)[number];

/** Bucket index 0–3 of a duration. */
export function latencyBucketIndex(ms: number): 0 | 1 | 2 | 3 {
  if (ms < 100) return 0;
  if (ms < 500) return 1;
  if (ms < 2_000) return 2;
  return 3;
}

/** The four counts as the API names them. */
export function latencyBuckets(counts: readonly number[]): LatencyBuckets {
  return {
    under_100: counts[0] ?? 0,
    under_500: counts[1] ?? 0,
    under_2000: counts[2] ?? 0,
    over_2000: counts[3] ?? 0,
  };
}

/** The p95 label for an exact p95 (null when there are no calls). */
export const p95Label = (p95: number | null): P95Label | null =>
  p95 === null ? null : P95_LABELS[latencyBucketIndex(p95)]!;

/**
 * Nearest-rank percentile over a histogram of `[value, count]` pairs sorted by value:
 * the smallest observed value with at least `p` of all observations at or below it
 * (rank ⌈p·n⌉). Always an observed duration; `null` for no observations.
 */
export function percentileFromCounts(
  sorted: readonly (readonly [number, number])[],
  p: number,
): number | null {
  let total = 0;
  for (const [, n] of sorted) total += n;
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const [value, n] of sorted) {
    seen += n;
    if (seen >= rank) return value;
  }
  return sorted.at(-1)![0];
}

/** p50/p95/p99 over one sorted histogram. */
export function percentiles(sorted: readonly (readonly [number, number])[]): {
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
} {
  return {
    p50_ms: percentileFromCounts(sorted, 0.5),
    p95_ms: percentileFromCounts(sorted, 0.95),
    p99_ms: percentileFromCounts(sorted, 0.99),
  };
}

/** Merges `[value, count]` histograms into one sorted by value. */
export function mergeHistograms(
  parts: Iterable<readonly (readonly [number, number])[]>,
): [number, number][] {
  const acc = new Map<number, number>();
  for (const part of parts) for (const [v, n] of part) acc.set(v, (acc.get(v) ?? 0) + n);
  return [...acc.entries()].sort((a, b) => a[0] - b[0]);
}

/** Histogram of raw durations (for small sets such as one session). */
export function histogramOf(values: Iterable<number>): [number, number][] {
  return mergeHistograms([[...values].map((v) => [v, 1] as const)]);
}

/**
 * Fine latency buckets, used only to find exact percentiles fast: exact below 32 ms, then 16
 * buckets per doubling (≈ 4 % wide). Integer-only, so SQL and JS agree on every boundary.
 */
export function fineBucket(ms: number): number {
  const d = Math.max(0, Math.floor(ms));
  if (d < 32) return d;
  const e = d >= 2 ** 31 ? Math.floor(Math.log2(d)) : 31 - Math.clz32(d);
  return 32 + 16 * (e - 5) + (Math.floor(d / 2 ** (e - 4)) & 15);
}

/** `[lo, hi)` of a fine bucket. */
export function fineBucketRange(b: number): [number, number] {
  if (b < 32) return [b, b + 1];
  const k = b - 32;
  const e = 5 + Math.floor(k / 16);
  const sub = k % 16;
  return [(16 + sub) * 2 ** (e - 4), (17 + sub) * 2 ** (e - 4)];
}

/**
 * Where the nearest-rank `p` percentile of `n` observations falls in a fine histogram
 * (`[bucket, count]` sorted by bucket): the bucket, and the 1-based rank inside it.
 */
export function locateRank(
  fine: readonly (readonly [number, number])[],
  p: number,
): { bucket: number; rank: number } | null {
  let total = 0;
  for (const [, n] of fine) total += n;
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let below = 0;
  for (const [b, n] of fine) {
    if (below + n >= rank) return { bucket: b, rank: rank - below };
    below += n;
  }
  return null;
}

/** The `rank`-th (1-based) value of a `[value, count]` histogram sorted by value. */
export function valueAtRank(
  sorted: readonly (readonly [number, number])[],
  rank: number,
): number | null {
  let seen = 0;
  for (const [v, n] of sorted) {
    seen += n;
    if (seen >= rank) return v;
  }
  return null;
}

/** Octave of a duration (its bit length): 0 for 0 ms, then [2^(b−1), 2^b). Coarse locating. */
export function octave(ms: number): number {
  const d = Math.max(0, Math.floor(ms));
  return d < 2 ** 31 ? 32 - Math.clz32(d) : Math.floor(Math.log2(d)) + 1;
}

/** `[lo, hi)` of an octave. */
export const octaveRange = (b: number): [number, number] =>
  b <= 0 ? [0, 1] : [2 ** (b - 1), 2 ** b];
