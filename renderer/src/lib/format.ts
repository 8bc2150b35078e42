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

/**
 * A duration: sub-millisecond ones as such — SDKs send whole milliseconds, so a 0 is a call
 * that took under one (`< 1 ms`; an MCP tool often answers that fast, and "0 ms" would say it
 * took nothing) and a computed fraction keeps its decimal (`0.4 ms`) — then `12 ms`, `1.50 s`,
 * `2m 5s`.
 */
export function fmtMs(ms: number | null | undefined): string {
  if (ms == null) return '—';
  if (ms === 0) return '< 1 ms';
  if (ms > 0 && ms < 9.95 && !Number.isInteger(ms)) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  if (m < 60) return `${m}m ${s}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** A count in a few characters: `950`, `1.2k`, `14k`, `3.4M`. */
export function fmtCompact(n: number | null | undefined): string {
  if (n == null) return '—';
  if (n < 1000) return intFmt.format(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/**
 * Sizes are UTF-16 code units on the wire ("units"), not bytes. The dashboard reads them as
 * tokens (units ÷ 4, the rule the hosted product uses); raw units appear only where a page
 * explains the measure, and always with their name.
 */
export const fmtUnits = fmtCompact;

/** The rule behind every token figure, for tooltips beside them. */
export const TOKENS_RULE =
  'Tokens ≈ UTF-16 code units ÷ 4. SDKs measure sizes in UTF-16 code units (JavaScript string length); the hosted product converts them the same way.';

/** Tokens for a size in UTF-16 units, as a bare number for a column headed "(tok)". */
export function fmtTok(units: number | null | undefined): string {
  return units == null ? '—' : fmtCompact(units / 4);
}

/** Tokens for a size in UTF-16 units, with the unit: `36 tok`. */
export function fmtTokens(units: number | null | undefined): string {
  return units == null ? '—' : `${fmtTok(units)} tok`;
}

/** A byte size with its unit, 1024-based: `512 B`, `1.0 KB`, `2.4 MB`. */
export function fmtBytes(n: number | null | undefined): string {
  if (n == null) return '—';
  if (n < 1024) return `${Math.round(n)} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** Every cost reads with this many decimals, on every page and in every tooltip. */
export const USD_DECIMALS = 4;

/**
 * Dollars at one precision everywhere: `$0.0037`, `$0.0370`, `$1,234.5000`. A non-zero cost
 * below that precision reads `<$0.0001` rather than a misleading `$0.0000`.
 */
export function fmtUsd(usd: number | null | undefined): string {
  if (usd == null || Number.isNaN(usd)) return '—';
  if (usd === 0) return '$0';
  const floor = 10 ** -USD_DECIMALS;
  if (Math.abs(usd) < floor) return `<$${floor.toFixed(USD_DECIMALS)}`;
  return `$${usd.toLocaleString('en-US', {
    minimumFractionDigits: USD_DECIMALS,
    maximumFractionDigits: USD_DECIMALS,
  })}`;
}

/** The hosted latency buckets: URL key, the p95 label of the bucket, and its range as read. */
export const LATENCY_BUCKETS = [
  { key: 'under_100', p95: '100ms', range: '< 100 ms' },
  { key: 'under_500', p95: '500ms', range: '100–500 ms' },
  { key: 'under_2000', p95: '2s', range: '0.5–2 s' },
  { key: 'over_2000', p95: '>2s', range: '≥ 2 s' },
] as const;

/** The bucket a p95 label names (the hosted `p95_bucket`), or undefined for none. */
export function latencyBucketOf(p95Label: string | null | undefined) {
  return LATENCY_BUCKETS.find((b) => b.p95 === p95Label);
}

/** Abbreviations the pages use, each with the words it stands for (shown as a tooltip). */
export const GLOSSARY = {
  FCS: 'First-call success: the call succeeded, was not empty and was not retried.',
  p50: 'Median latency: half the calls were faster.',
  p95: '95th percentile latency: 95 of 100 calls were at least this fast.',
  p99: '99th percentile latency: 99 of 100 calls were at least this fast.',
  tok: TOKENS_RULE,
  args_hash: 'A hash of the canonical arguments: equal hashes mean equal arguments.',
} as const;

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
