/**
 * The numbers behind every definition in docs/metrics.md (wire-format §4). Browser-safe: no
 * I/O, no Node APIs, so the renderer may import them for labels and thresholds.
 */

/** A next same-tool call starting at most this long after this one (start to start) is linked. */
export const RETRY_WINDOW_MS = 30_000;

/** The `args_hash` an SDK sends when it could not hash the arguments. */
export const UNKNOWN_HASH = '000000000000';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Tokens ≈ UTF-16 units ÷ 4. */
export const UNITS_PER_TOKEN = 4;

/** Default price of input tokens (a setting). */
export const DEFAULT_USD_PER_MILLION_TOKENS = 3;

/** Insights: a tool needs this many calls in the view before any threshold applies. */
export const INSIGHT_MIN_CALLS = 20;

/** Hosted insight thresholds. Strict comparisons, exactly as the hosted product states them. */
export const THRESHOLDS = {
  /** First-call success below this → medium; below `high` → high. */
  firstCallSuccess: { medium: 0.7, high: 0.5 },
  /** Empty rate above this → medium; above `high` → high. */
  emptyRate: { medium: 0.05, high: 0.2 },
  /** Share of calls taking ≥ 2 s above this → medium; above `high` → high. */
  slowShare: { medium: 0.1, high: 0.3 },
  /** Average response (UTF-16 units) above this → medium; above `high` → high. */
  avgResponse: { medium: 10_000, high: 30_000 },
} as const;

/** A tool whose average response is above this is a "heavy payload". */
export const HEAVY_PAYLOAD_UNITS = THRESHOLDS.avgResponse.medium;

/** A call this slow or slower counts as slow (the hosted top latency bucket). */
export const SLOW_CALL_MS = 2_000;

/** Time series: the automatic bucket is a minute when the range spans less than this. */
export const MINUTE_BUCKETS_BELOW_MS = 3 * HOUR_MS;

/** Time series: the automatic bucket is an hour up to this span, a day beyond. */
export const HOUR_BUCKETS_UP_TO_MS = 72 * HOUR_MS;

/** Time series: at most this many minute buckets (48 h; minutes are read from raw calls). */
export const MAX_MINUTE_BUCKETS = 2_880;

/** Time series: at most this many hour or day buckets. */
export const MAX_BUCKETS = 5_000;
