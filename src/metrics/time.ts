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
 * {@link splitByHours} for rollups whose rows add (counts and sums, never distinct counts).
 * Counts can be taken away, so the rule at each edge is "read the bigger unit, take away what
 * lies outside": an edge hour the range covers for more than half is read from the hourly
 * rollup minus its uncovered minutes read raw, and an edge day covered for more than 12 whole
 * hours as the day minus the hours it leaves out. Each edge then costs at most 30 minutes of
 * raw calls and 12 hourly reads, instead of 59 minutes and 23.
 */
export interface AdditiveSplit {
  /** The whole hours read from rollups (edge hours read whole included), or null. */
  whole: Span | null;
  /** Whole UTC days to read (edge days covered for more than half included), or null. */
  days: Span | null;
  /** Whole hours to add. */
  plus: Span[];
  /** Whole hours to take away (inside `days`, outside the range). */
  minus: Span[];
  /** Parts of hours to read raw and add. */
  partial: Span[];
  /** Parts of hours to read raw and take away (inside `whole`, outside the range). */
  minusRaw: Span[];
}

/** Cuts spans at every multiple of `unitMs` (UTC). */
function cutAt(spans: readonly Span[], unitMs: number): Span[] {
  const out: Span[] = [];
  for (const s of spans)
    for (let u = bucketStart(s.from!, unitMs); u < s.to!; u += unitMs)
      out.push({ from: Math.max(s.from!, u), to: Math.min(s.to!, u + unitMs) });
  return out;
}

/** Widens `span` (null: none yet) to hold `[from, to)`; an open end stays open. */
function widen(span: Span | null, from: number, to: number): Span {
  if (!span) return { from, to };
  return {
    from: span.from === undefined ? undefined : Math.min(span.from, from),
    to: span.to === undefined ? undefined : Math.max(span.to, to),
  };
}

/** Splits a range for additive rollups (see {@link AdditiveSplit}). */
export function splitAdditive(range: Span): AdditiveSplit {
  const { days: hoursWhole, edges } = splitByDay(range, HOUR_MS);
  // Hour level: an edge hour covered for more than half joins the whole hours.
  let whole = hoursWhole;
  const partial: Span[] = [];
  const minusRaw: Span[] = [];
  for (const e of cutAt(edges, HOUR_MS)) {
    const hour = bucketStart(e.from!, HOUR_MS);
    if (e.to! - e.from! <= HOUR_MS / 2) {
      partial.push(e);
      continue;
    }
    if (e.from! > hour) minusRaw.push({ from: hour, to: e.from });
    if (e.to! < hour + HOUR_MS) minusRaw.push({ from: e.to, to: hour + HOUR_MS });
    whole = widen(whole, hour, hour + HOUR_MS);
  }
  if (!whole) return { whole, days: null, plus: [], minus: [], partial, minusRaw };
  // Day level: the same over the whole hours.
  const { days: wholeDays, edges: hours } = splitByDay(whole, DAY_MS);
  let days = wholeDays;
  const plus: Span[] = [];
  const minus: Span[] = [];
  for (const h of cutAt(hours, DAY_MS)) {
    const day = bucketStart(h.from!, DAY_MS);
    if (h.to! - h.from! <= 12 * HOUR_MS) {
      plus.push(h);
      continue;
    }
    if (h.from! > day) minus.push({ from: day, to: h.from });
    if (h.to! < day + DAY_MS) minus.push({ from: h.to, to: day + DAY_MS });
    days = widen(days, day, day + DAY_MS);
  }
  return { whole, days, plus, minus, partial, minusRaw };
}

/** Fills every bucket between `from` and `to` with `make(start)` where no value exists. */
export function gapFill<T>(
  starts: readonly number[],
  values: ReadonlyMap<number, T>,
  make: (start: number) => T,
): T[] {
  return starts.map((s) => values.get(s) ?? make(s));
}
