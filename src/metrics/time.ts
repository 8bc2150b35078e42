/** Time bucketing, gap-filling and the rollup/raw split of a range. */
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../shared/metric-constants.js';

/** A time series bucket size. */
export type Granularity = 'minute' | 'hour' | 'day';
/** The width of each bucket size. */
export const GRANULARITY_MS: Record<Granularity, number> = {
  minute: MINUTE_MS,
  hour: HOUR_MS,
  day: DAY_MS,
};

/** Start of the bucket holding `ms`, for buckets aligned to local time at `offsetMs` east of UTC. */
export function bucketStart(ms: number, widthMs: number, offsetMs = 0): number {
  return Math.floor((ms + offsetMs) / widthMs) * widthMs - offsetMs;
}

/** Start of the UTC day holding `ms`. */
export const utcDay = (ms: number): number => bucketStart(ms, DAY_MS);

/** Start of the UTC hour holding `ms`. */
export const utcHour = (ms: number): number => bucketStart(ms, HOUR_MS);

/** Every bucket start from the one holding `from` to the one holding `to - 1`. */
export function bucketStarts(from: number, to: number, widthMs: number, offsetMs = 0): number[] {
  const out: number[] = [];
  if (to <= from) return out;
  for (let t = bucketStart(from, widthMs, offsetMs); t < to; t += widthMs) out.push(t);
  return out;
}

/** A half-open interval `[from, to)`; missing ends are unbounded. */
export interface Span {
  from?: number;
  to?: number;
}

/**
 * Splits a range into the whole units (UTC days by default) a rollup answers and up to two
 * partial edges that must be read from raw calls. `days` is null when no whole unit fits.
 */
export function splitByDay(
  range: Span,
  unitMs: number = DAY_MS,
): { days: Span | null; edges: Span[] } {
  const { from, to } = range;
  const firstDay = from === undefined ? undefined : bucketStart(from + unitMs - 1, unitMs);
  const lastDay = to === undefined ? undefined : bucketStart(to, unitMs);
  if (firstDay !== undefined && lastDay !== undefined && firstDay >= lastDay) {
    return { days: null, edges: from! < to! ? [{ from, to }] : [] };
  }
  const edges: Span[] = [];
  if (from !== undefined && firstDay! > from) edges.push({ from, to: firstDay });
  if (to !== undefined && lastDay! < to) edges.push({ from: lastDay, to });
  return { days: { from: firstDay, to: lastDay }, edges };
}

/** A range split three ways: whole days, whole hours beside them, partial hours at the ends. */
export interface HourSplit {
  /** Whole UTC hours of the range (null when none fits): `days` and `hours` tile it. */
  whole: Span | null;
  /** Whole UTC days inside `whole`. */
  days: Span | null;
  /** Whole hours of `whole` outside `days` (at most two spans). */
  hours: Span[];
  /** The parts of the range that are not whole hours (at most two spans), read raw. */
  partial: Span[];
}

/**
 * Splits a range for rollups kept by day and by hour: whole days from the daily rows, whole
 * hours at the edges from the hourly ones, and only the partial hours at the ends from raw
 * calls — so a range costs at most two hours of raw calls whatever its length.
 */
export function splitByHours(range: Span): HourSplit {
  const { days: whole, edges: partial } = splitByDay(range, HOUR_MS);
  if (!whole) return { whole: null, days: null, hours: [], partial };
  const { days, edges: hours } = splitByDay(whole, DAY_MS);
  return { whole, days, hours, partial };
}

/** Fills every bucket between `from` and `to` with `make(start)` where no value exists. */
export function gapFill<T>(
  starts: readonly number[],
  values: ReadonlyMap<number, T>,
  make: (start: number) => T,
): T[] {
  return starts.map((s) => values.get(s) ?? make(s));
}
