/**
 * `started_at` → UTC epoch milliseconds.
 *
 * SDKs send 0–9 fraction digits and any offset (wire-format §2). `Date.parse` is not used: it
 * is implementation-defined past 3 fraction digits. Sub-millisecond digits are truncated, so
 * `…43.5449Z` and `…43.544Z` land on the same millisecond and arrival order breaks the tie.
 *
 * Years 0000–0099 are real years here. The hosted API validates with zod's
 * `datetime({ offset: true })`, whose pattern accepts any four-digit year, so refusing them
 * would drop calls production keeps; `Date.UTC` alone would read them as 1900–1999, so the
 * year is set with `setUTCFullYear` instead.
 */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

/** The fields of an ISO 8601 instant as written, before any range check. */
interface TimestampFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
  /** Minutes east of UTC, as written (`+99:99` reads as 99 × 60 + 99). */
  offsetMin: number;
  offsetHours: number;
  offsetMinutes: number;
}

function fieldsOf(text: string): TimestampFields | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '', , sign, oh = '0', om = '0'] = m;
  const offsetHours = Number(oh);
  const offsetMinutes = Number(om);
  return {
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    hour: Number(h),
    minute: Number(mi),
    second: Number(s),
    ms: Number(frac.slice(0, 3).padEnd(3, '0')),
    offsetMin: sign ? (offsetHours * 60 + offsetMinutes) * (sign === '-' ? -1 : 1) : 0,
    offsetHours,
    offsetMinutes,
  };
}

function epochOf(f: TimestampFields): number {
  const date = new Date(Date.UTC(2000, f.month - 1, f.day, f.hour, f.minute, f.second, f.ms));
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear takes the year as written. The
  // month and day are set again with it so 29 February lands in the year it was written for.
  date.setUTCFullYear(f.year, f.month - 1, f.day);
  return date.getTime() - f.offsetMin * 60_000;
}

/**
 * Returns epoch milliseconds, or `null` when the text is not an ISO 8601 instant with offset.
 * Ingest only sees text zod's pattern accepted (a real calendar date, hours ≤ 23); the offset
 * is taken arithmetically as production's pattern allows any two digits there.
 */
export function parseTimestamp(text: string): number | null {
  const f = fieldsOf(text);
  if (!f) return null;
  const ms = epochOf(f);
  return Number.isNaN(ms) ? null : ms;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (year: number, month: number): number =>
  month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!;

/**
 * Why `text` is not a valid instant — out-of-range fields that `Date` would silently roll over
 * (`2026-02-30`, `25:00`, `+99:99`) — or null when it is one. For query parameters, where a
 * rolled-over value would quietly answer for another time.
 */
export function timestampProblem(text: string): string | null {
  const f = fieldsOf(text);
  if (!f) return 'not an ISO 8601 instant with an offset';
  if (f.month < 1 || f.month > 12) return `month ${f.month} does not exist`;
  if (f.day < 1 || f.day > daysIn(f.year, f.month))
    return `${String(f.year).padStart(4, '0')}-${String(f.month).padStart(2, '0')} has no day ${f.day}`;
  if (f.hour > 23 || f.minute > 59 || f.second > 59) return 'the time of day is out of range';
  if (f.offsetHours > 23 || f.offsetMinutes > 59)
    return 'the offset is out of range (±23:59 at most)';
  return null;
}
