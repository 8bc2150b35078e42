/**
 * Calls dated where no real call can be: before MCP existed (a device whose clock was never
 * set reports 1970), or ahead of this machine's clock. They are stored as sent — production
 * keeps them too — but an automatic time range leaves them out, and the views say so, so one
 * bad clock cannot stretch every chart over fifty years.
 */

/** MCP was published on 25 November 2024; an earlier call is a clock that was not set. */
export const PLAUSIBLE_FROM_MS = Date.UTC(2024, 10, 25);

/** Clocks drift; a call this far ahead of ours or less is not flagged. */
export const FUTURE_TOLERANCE_MS = 10 * 60_000;

/** A group of calls left out of an automatic range. */
export interface DatedGroup {
  calls: number;
  first_ms: number;
  last_ms: number;
  first: string;
  last: string;
}

/** What an automatic range left out, and the sentence a chart shows for it. */
export interface ClockOutliers {
  /** Dated before {@link PLAUSIBLE_FROM_MS}. */
  past: DatedGroup | null;
  /** Dated more than {@link FUTURE_TOLERANCE_MS} after the server's clock. */
  future: DatedGroup | null;
  /** Plausibly dated, but before the window one chart can show at its bucket. */
  earlier: DatedGroup | null;
  /** One sentence for the chart card, or null when nothing was left out. */
  note: string | null;
}

/** A group from a count and an extent; null when there are no calls. */
export function datedGroup(calls: number, first: number | null, last: number | null) {
  if (calls === 0 || first === null || last === null) return null;
  return {
    calls,
    first_ms: first,
    last_ms: last,
    first: new Date(first).toISOString(),
    last: new Date(last).toISOString(),
  } satisfies DatedGroup;
}

const callsWord = (n: number): string =>
  `${n.toLocaleString('en-US')} ${n === 1 ? 'call' : 'calls'}`;
const yearsOf = (g: DatedGroup): string => {
  const a = new Date(g.first_ms).getUTCFullYear();
  const b = new Date(g.last_ms).getUTCFullYear();
  return a === b ? String(a).padStart(4, '0') : `${a}–${b}`;
};

/**
 * The chart card's sentence: `1 call dated 1970 — clock not set? Not shown in this chart.`
 * `shown` when the chart shows them after all (no call is plausibly dated).
 */
export function outlierNote(o: Omit<ClockOutliers, 'note'>, shown = false): string | null {
  const parts: string[] = [];
  if (o.past) parts.push(`${callsWord(o.past.calls)} dated ${yearsOf(o.past)} — clock not set?`);
  if (o.future)
    parts.push(
      `${callsWord(o.future.calls)} dated in the future (${yearsOf(o.future)}) — clock ahead?`,
    );
  if (o.earlier)
    parts.push(
      `${callsWord(o.earlier.calls)} before ${o.earlier.last.slice(0, 10)} are outside this chart.`,
    );
  if (!parts.length) return null;
  return `${parts.join(' ')}${o.earlier || shown ? '' : ' Not shown in this chart.'}`;
}

/** A session dated ahead of the server's clock, or before MCP existed. */
export type ClockSuspect = 'future' | 'past';

/** Whether a session's dates look like a wrong clock: `future`, `past`, or null. */
export function clockSuspect(firstMs: number, lastMs: number, nowMs: number): ClockSuspect | null {
  if (lastMs > nowMs + FUTURE_TOLERANCE_MS) return 'future';
  if (firstMs < PLAUSIBLE_FROM_MS) return 'past';
  return null;
}
