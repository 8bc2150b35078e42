/**
 * How a `tools/call` ended — the one list every layer uses (the wire schema, the fast path,
 * the store's CHECK and SQL, the metrics, the CLI's `--outcome`, the producer, the renderer).
 * The metrics split `ok` into `ok` and `empty` (an ok call that returned nothing useful), which
 * gives the five outcome classes.
 */

/** The four outcomes on the wire (shared/wire-format.md §2). */
export const OUTCOMES = ['ok', 'bad_args', 'tool_error', 'crashed'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The outcomes that count as an error. */
export const ERROR_OUTCOMES = [
  'bad_args',
  'tool_error',
  'crashed',
] as const satisfies readonly Outcome[];

/** The five outcome classes: `ok` means ok and not empty; they partition the calls. */
export const OUTCOME_CLASSES = ['ok', 'empty', 'bad_args', 'tool_error', 'crashed'] as const;
export type OutcomeClass = (typeof OUTCOME_CLASSES)[number];
export type OutcomeCounts = Record<OutcomeClass, number>;

/** How a person reads each class. */
export const OUTCOME_LABEL: Record<OutcomeClass, string> = {
  ok: 'ok',
  empty: 'empty',
  bad_args: 'bad args',
  tool_error: 'tool error',
  crashed: 'crashed',
};

/** The class of one call. */
export function outcomeClassOf(c: { outcome: Outcome; is_empty: boolean }): OutcomeClass {
  return c.outcome === 'ok' && c.is_empty ? 'empty' : c.outcome;
}
