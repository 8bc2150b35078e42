/**
 * While the ingest spool drains (a flood, or a backlog left by a previous run), reads answer
 * with what is stored so far (docs/api.md): every count on a data page is short by the calls
 * still waiting. The sidebar's note says calls are being applied; this says, where the
 * figures are, that they are partial — and by how much.
 */
import { useSpool } from '../api/live';
import { fmtInt } from '../lib/format';
import './spool.css';

/** The note above a data page's figures; nothing when no acknowledged call is waiting. */
export function PartialFigures() {
  const spool = useSpool();
  // A failing spool has its own banner (SpoolFailure), which says more.
  const pending = spool && !spool.failing ? spool.pendingPayloads : 0;
  if (pending === 0) return null;
  return (
    <p className="figures-partial" role="note" data-testid="figures-partial">
      <span className="spool-spinner" aria-hidden="true" />
      <span>
        Applying <strong>{fmtInt(pending)}</strong> acknowledged {pending === 1 ? 'call' : 'calls'}{' '}
        — figures partial. They fill in by themselves as the calls are stored.
      </span>
    </p>
  );
}
