/** A table cell's first-call verdict: ✓ or ✗ and a word or two; the full sentence is a hover away. */
import type { CallView } from '../../api/types';
import { verdictOf } from '../../lib/verdict';
import './details.css';

export function VerdictCell({ call }: { call: CallView }) {
  const v = verdictOf(call);
  return (
    <span
      className="verdict-short"
      data-fcs={v.ok ? 'yes' : 'no'}
      data-verdict={v.kind}
      title={call.reason}
    >
      <span className={`verdict ${v.ok ? 'yes' : 'no'}`} aria-hidden="true">
        {v.ok ? '✓' : '✗'}
      </span>
      <span className="sr-only">
        {v.ok ? 'First-call success: ' : 'Not a first-call success: '}
      </span>
      {v.short}
    </span>
  );
}
