/** Number, duration, size and time formatting, in one place so every page reads the same. */
const intFmt = new Intl.NumberFormat('en-US');

export const fmtInt = (n: number | null | undefined): string =>
  n == null ? '—' : intFmt.format(n);

/** A count for a chart axis, short enough for its narrow gutter: `950`, `6k`, `12.5k`, `1.2M`. */
export function fmtAxisCount(n: number): string {
  const a = Math.abs(n);
  if (a < 1000) return intFmt.format(n);
  if (a < 1_000_000) return `${Number((n / 1000).toFixed(a < 100_000 ? 1 : 0))}k`;
  return `${Number((n / 1_000_000).toFixed(1))}M`;
}

/** A fraction 0..1 as a percentage with one decimal (`28.6%`); null is a dash (no calls). */
export function fmtPct(rate: number | null | undefined, digits = 1): string {
  if (rate == null || Number.isNaN(rate)) return '—';
  return `${(rate * 100).toFixed(digits)}%`;
}

export function fmtMs(ms: number | null | undefined): string {
  if (ms == null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  if (m < 60) return `${m}m ${s}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** Sizes are UTF-16 code units on the wire ("units"), not bytes; say so where it matters. */
export function fmtUnits(n: number | null | undefined): string {
  if (n == null) return '—';
  if (n < 1000) return intFmt.format(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function fmtTokens(units: number | null | undefined): string {
  return units == null ? '—' : `${fmtUnits(units / 4)} tok`;
}

export function fmtUsd(usd: number | null | undefined): string {
  if (usd == null) return '—';
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toFixed(5)}`;
  if (usd < 10) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}

const timeFmt = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});
const dateTimeFmt = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});

export const fmtTime = (ms: number): string => timeFmt.format(ms);

/** Time with milliseconds, for the timeline where calls are ms apart. */
export function fmtTimeMs(ms: number): string {
  return `${timeFmt.format(ms)}.${String(ms % 1000).padStart(3, '0')}`;
}

export const fmtDateTime = (ms: number): string => dateTimeFmt.format(ms);

/** "3 s ago", "5 min ago"; exact time in a title beside it. */
export function fmtAgo(ms: number, now = Date.now()): string {
  const d = Math.max(0, now - ms);
  if (d < 5_000) return 'just now';
  if (d < 60_000) return `${Math.floor(d / 1000)} s ago`;
  if (d < 3_600_000) return `${Math.floor(d / 60_000)} min ago`;
  if (d < 86_400_000) return `${Math.floor(d / 3_600_000)} h ago`;
  return `${Math.floor(d / 86_400_000)} d ago`;
}

export function shortSession(id: string): string {
  return id.length > 16 ? `${id.slice(0, 15)}…` : id;
}

/** `1 item`, `3 items`: the count and the noun, singular or plural. */
export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${fmtInt(n)} ${n === 1 ? one : many}`;
