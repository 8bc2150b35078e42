/**
 * The metric thresholds, taken from the metrics engine itself (browser-safe constants) so a
 * badge here and an insight from the API can never disagree.
 */
export {
  HEAVY_PAYLOAD_UNITS,
  INSIGHT_MIN_CALLS,
  RETRY_WINDOW_MS,
  SLOW_CALL_MS,
  THRESHOLDS,
  UNKNOWN_HASH,
  UNITS_PER_TOKEN,
  DEFAULT_USD_PER_MILLION_TOKENS,
} from '../../../src/shared/metric-constants';
