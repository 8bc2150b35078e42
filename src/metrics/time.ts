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

/**
 * {@link splitByHours} for rollups whose rows add (counts and sums, never distinct counts): an
 * edge day the range covers for more than 12 whole hours is read as the whole day minus the
 * hours it leaves out, so each edge costs at most 12 hourly reads instead of 23.
 */
export interface AdditiveSplit {
  /** Whole UTC hours of the range (null when none fits), as in {@link HourSplit}. */
  whole: Span | null;
  /** Whole UTC days to read (edge days covered for more than half included), or null. */
  days: Span | null;
  /** Whole hours to add. */
  plus: Span[];
  /** Whole hours to take away (inside `days`, outside the range). */
  minus: Span[];
  /** The parts of the range that are not whole hours, read raw. */
  partial: Span[];
}

/** Splits a range into days, hours added and hours taken away (see {@link AdditiveSplit}). */
export function splitAdditive(range: Span): AdditiveSplit {
  const { whole, days, hours, partial } = splitByHours(range);
  if (!whole) return { whole, days: null, plus: [], minus: [], partial };
  const plus: Span[] = [];
  const minus: Span[] = [];
  let from = days?.from;
  let to = days?.to;
  let bounded = days !== null;
  // Edge hours, cut at midnights (a range inside two days has no whole day but two edges).
  const pieces: Span[] = [];
  for (const h of hours)
    for (let day = bucketStart(h.from!, DAY_MS); day < h.to!; day += DAY_MS)
      pieces.push({ from: Math.max(h.from!, day), to: Math.min(h.to!, day + DAY_MS) });
  for (const h of pieces) {
    const day = bucketStart(h.from!, DAY_MS);
    if (h.to! - h.from! <= 12 * HOUR_MS) {
      plus.push(h);
      continue;
    }
    // Widen the days by this edge day and take away the rest of it.
    if (h.from! > day) minus.push({ from: day, to: h.from });
    if (h.to! < day + DAY_MS) minus.push({ from: h.to, to: day + DAY_MS });
    if (!bounded) {
      from = day;
      to = day + DAY_MS;
      bounded = true;
    } else {
      if (from !== undefined && day < from) from = day;
      if (to !== undefined && day + DAY_MS > to) to = day + DAY_MS;
    }
  }
  return { whole, days: bounded ? { from, to } : null, plus, minus, partial };
}

/** Fills every bucket between `from` and `to` with `make(start)` where no value exists. */
export function gapFill<T>(
  starts: readonly number[],
  values: ReadonlyMap<number, T>,
  make: (start: number) => T,
): T[] {
  return starts.map((s) => values.get(s) ?? make(s));
}
