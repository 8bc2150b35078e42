/** Log-bucket histograms (1-2-5 per decade) of sizes, schema sizes and durations. */
import { sizeBucket, sizeHistogram, type SizeBucketCount } from '../sizes.js';

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
