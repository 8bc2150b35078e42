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

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `days_from_civil`). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

/** The digit at `i` (0–9), or -1. */
const digitAt = (text: string, i: number): number => {
  const c = text.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
};

/** Two digits at `i`, or a negative number. */
const twoAt = (text: string, i: number): number => {
  const a = digitAt(text, i);
  const b = digitAt(text, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
};

/**
 * The shapes real SDKs send — `YYYY-MM-DDTHH:MM:SS`, then no fraction or 1–9 fraction digits,
 * then `Z` or `+00:00` (wire-format §2: TS, PHP, Ruby, Go, Kotlin, .NET) — read digit by digit,
 * with every field in range; anything else is `undefined` and takes the general path. Why: the
 * pattern and `Date` cost ~3% of a flood's main thread (docs/benchmarks-history.md, "Issue 19,
 * session 16"); test/store/timestamp.test.ts holds the two paths equal.
 */
function commonEpoch(text: string): number | undefined {
  const n = text.length;
  if (n < 20) return undefined;
  const t = text.charCodeAt(10);
  if (
    text.charCodeAt(4) !== 45 || // -
    text.charCodeAt(7) !== 45 ||
    (t !== 84 && t !== 116) || // T t
    text.charCodeAt(13) !== 58 || // :
    text.charCodeAt(16) !== 58
  )
    return undefined;
  // The fraction: its first three digits are the milliseconds, the rest is truncated.
  let i = 19;
  let ms = 0;
  if (text.charCodeAt(i) === 46) {
    const from = ++i;
    for (; i < n; i++) {
      const d = digitAt(text, i);
      if (d < 0) break;
      if (i - from < 3) ms = ms * 10 + d;
    }
    if (i === from) return undefined;
    for (let k = Math.min(i - from, 3); k < 3; k++) ms *= 10;
  }
  const z = text.charCodeAt(i);
  const utc = i === n - 1 ? z === 90 || z === 122 : i === n - 6 && text.endsWith('+00:00');
  if (!utc) return undefined;
  const hi = twoAt(text, 0);
  const lo = twoAt(text, 2);
  const month = twoAt(text, 5);
  const day = twoAt(text, 8);
  const hour = twoAt(text, 11);
  const minute = twoAt(text, 14);
  const second = twoAt(text, 17);
  if (hi < 0 || lo < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59) return undefined;
  if (second < 0 || second > 59 || month < 1 || month > 12) return undefined;
  const year = hi * 100 + lo;
  if (day < 1 || day > daysIn(year, month)) return undefined;
  return (
    daysFromCivil(year, month, day) * 86_400_000 +
    hour * 3_600_000 +
    minute * 60_000 +
    second * 1000 +
    ms
  );
}

/**
 * Returns epoch milliseconds, or `null` when the text is not an ISO 8601 instant with offset.
 * Ingest only sees text zod's pattern accepted (a real calendar date, hours ≤ 23); the offset
 * is taken arithmetically as production's pattern allows any two digits there.
 */
export function parseTimestamp(text: string): number | null {
  const fast = commonEpoch(text);
  if (fast !== undefined) return fast;
  return parseTimestampSlowly(text);
}

/** {@link parseTimestamp} without the fast path (exported for the test that compares them). */
export function parseTimestampSlowly(text: string): number | null {
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
