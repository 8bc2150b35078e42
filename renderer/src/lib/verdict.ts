/**
 * A call's first-call verdict in a few words, for a table cell: the mark and the one reason
 * that matters most. The API's full sentence (`reason`) goes in the details panel beside the
 * table; a cell that tried to hold it was cut off at every width.
 */
import type { CallView } from '../api/types';

/** Why a call is or is not a first-call success, as a short key. */
export type VerdictKind =
  | 'success'
  | 'repeated'
  | 'not_comparable'
  | 'retried'
  | 'empty'
  | 'bad_args'
  | 'tool_error'
  | 'crashed';

export interface Verdict {
  /** A first-call success. */
  ok: boolean;
  kind: VerdictKind;
  /** The cell text without the mark: "retried", "bad args, retried", "ok". */
  short: string;
}

const OUTCOME_SHORT: Partial<Record<CallView['outcome_class'], VerdictKind>> = {
  empty: 'empty',
  bad_args: 'bad_args',
  tool_error: 'tool_error',
  crashed: 'crashed',
};

const WORDS: Record<VerdictKind, string> = {
  success: 'ok',
  repeated: 'ok, then repeated',
  not_comparable: 'ok, next not comparable',
  retried: 'retried',
  empty: 'empty',
  bad_args: 'bad args',
  tool_error: 'tool error',
  crashed: 'crashed',
};

/** The verdict of one call, from the facts the API already decided. */
export function verdictOf(
  c: Pick<
    CallView,
    'first_call_success' | 'outcome_class' | 'retried' | 'repeated' | 'unknown_link'
  >,
): Verdict {
  if (c.first_call_success) {
    const kind: VerdictKind = c.repeated
      ? 'repeated'
      : c.unknown_link
        ? 'not_comparable'
        : 'success';
    return { ok: true, kind, short: WORDS[kind] };
  }
  const outcome = OUTCOME_SHORT[c.outcome_class];
  if (outcome)
    return {
      ok: false,
      kind: outcome,
      short: c.retried ? `${WORDS[outcome]}, retried` : WORDS[outcome],
    };
  return { ok: false, kind: 'retried', short: WORDS.retried };
}
