/**
 * Metric conditions on stored per-call facts — the calls behind a number
 * (`GET /api/metrics/calls`), as data: the API parses and checks them, the store alone turns
 * them into SQL (src/store/metrics/queries/call-conditions.ts).
 */

/** Per-call flags a condition may require (true) or exclude (false). */
export const CALL_FLAGS = [
  'first_call_success',
  'retried',
  'repeated',
  'unknown_link',
  'retry_of_previous',
  'in_chain',
] as const;

/** One of {@link CALL_FLAGS}. */
export type CallFlag = (typeof CALL_FLAGS)[number];

/** Conditions on a call's stored facts; every one present must hold. */
export interface CallConditions {
  /** Index into OUTCOME_CLASSES (ok, ok-but-empty, bad_args, tool_error, crashed). */
  outcomeClass?: number;
  /** true: every outcome but ok; false: ok only. */
  errors?: boolean;
  flags?: Partial<Record<CallFlag, boolean>>;
  /** Index into LATENCY_BUCKETS. */
  latencyBucket?: number;
  /** A response-size bucket (src/metrics/sizes.ts). */
  sizeBucket?: number;
  /** The tool called just before, in the same session. */
  fromTool?: string;
  /** A substring of the tool, client, session id, args hash or outcome (any case). */
  text?: string;
  /** The retry chain (its run id) the call is in. */
  chain?: number;
}
