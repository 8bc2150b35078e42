/** Response and schema sizes, tokens and cost (wire-format §4). Units are UTF-16 code units. */
import { UNITS_PER_TOKEN } from '../shared/metric-constants.js';

/**
 * Log-scale bucket edges (1-2-5 per decade). Bucket 0 holds exactly 0; bucket i ≥ 1 holds
 * [SIZE_EDGES[i-1], SIZE_EDGES[i]). The last edge is above the wire cap of 2,147,483,647.
 */
export const SIZE_EDGES: readonly number[] = (() => {
  const edges: number[] = [];
  for (let decade = 1; decade <= 1e9; decade *= 10) edges.push(decade, 2 * decade, 5 * decade);
  return edges;
})();

/** Number of size buckets (0 plus one per edge). */
export const SIZE_BUCKET_COUNT = SIZE_EDGES.length + 1;

/** Bucket index of a size. */
export function sizeBucket(units: number): number {
  if (units < 1) return 0;
  let i = 0;
  while (i < SIZE_EDGES.length && units >= SIZE_EDGES[i]!) i++;
  return i;
}

/** Inclusive lower and exclusive upper bound of bucket `i` (`max` null past the last edge). */
export function sizeBucketRange(i: number): { min: number; max: number | null } {
  if (i <= 0) return { min: 0, max: 1 };
  return { min: SIZE_EDGES[i - 1] ?? Infinity, max: SIZE_EDGES[i] ?? null };
}

/** A short number: 1.2K, 35K, 1M. */
export function compactNumber(n: number): string {
  const abs = Math.abs(n);
  const fmt = (v: number, suffix: string): string =>
    `${Number.isInteger(v) ? v : Number(v.toFixed(v < 10 ? 1 : 0))}${suffix}`;
  if (abs >= 1e9) return fmt(n / 1e9, 'G');
  if (abs >= 1e6) return fmt(n / 1e6, 'M');
  if (abs >= 1e3) return fmt(n / 1e3, 'K');
  return String(n);
}

/** `0`, `1–2`, `2–5`, …, `1K–2K`: the bucket's range as a label. */
export function sizeBucketLabel(i: number): string {
  const { min, max } = sizeBucketRange(i);
  if (i <= 0) return '0';
  return max === null ? `≥${compactNumber(min)}` : `${compactNumber(min)}–${compactNumber(max)}`;
}

/** Tokens ≈ units ÷ 4 (not rounded: sums stay exact). */
export const tokensOf = (units: number): number => units / UNITS_PER_TOKEN;

/** Cost in US dollars of `units` at `usdPerMillion` per million tokens. */
export const costUsd = (units: number, usdPerMillion: number): number =>
  (tokensOf(units) * usdPerMillion) / 1_000_000;

/** One bucket of a size histogram as the API returns it. */
export interface SizeBucketCount {
  bucket: number;
  label: string;
  min: number;
  max: number | null;
  count: number;
  units: number;
}

/**
 * A gap-filled histogram from sparse bucket counts: every bucket from the smallest to the
 * largest one present, so log-scale bars line up.
 */
export function sizeHistogram(
  counts: ReadonlyMap<number, { count: number; units: number }>,
): SizeBucketCount[] {
  const present = [...counts.keys()].filter((k) => (counts.get(k)?.count ?? 0) > 0);
  if (present.length === 0) return [];
  const lo = Math.min(...present);
  const hi = Math.max(...present);
  const out: SizeBucketCount[] = [];
  for (let b = lo; b <= hi; b++) {
    const c = counts.get(b);
    out.push({
      bucket: b,
      label: sizeBucketLabel(b),
      ...sizeBucketRange(b),
      count: c?.count ?? 0,
      units: c?.units ?? 0,
    });
  }
  return out;
}
