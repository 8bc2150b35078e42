/**
 * The ingest spool in the shell (src/ingest/spool.ts): while acknowledged calls are still being
 * applied, a small note at the foot of the sidebar says how many; when applying fails, a banner
 * across the top of every page says why and what happens to SDK flushes meanwhile.
 */
import { useEffect, useRef, useState } from 'react';
import { useSpool } from '../api/live';
import { fmtInt } from '../lib/format';
import './spool.css';

const PENDING_TITLE =
  'SDKs got their 202; these calls are safely spooled and will appear in every figure within moments.';
/** Screen readers hear the count at most this often; the visible count follows every event. */
const ANNOUNCE_EVERY_MS = 5000;
/** A failure reason is the store's message; anything longer is cut here (the title has it all). */
const REASON_MAX = 300;

const plural = (n: number): string => (n === 1 ? 'call' : 'calls');

/**
 * The backlog note. The live region is always mounted (so its first content is announced) and
 * empty while nothing waits, or while applying fails (the banner says so then).
 */
export function SpoolProgress() {
  const spool = useSpool();
  const pending = spool && !spool.failing ? spool.pendingPayloads : 0;
  // The visible count moves several times a second; a screen reader hears it every few seconds.
  const spoken = useThrottled(pending, ANNOUNCE_EVERY_MS) || pending;
  return (
    <div className="spool-slot" role="status" aria-live="polite" data-testid="spool-status">
      {pending > 0 && (
        <div className="spool-pending" title={PENDING_TITLE} data-testid="spool-pending">
          <span className="spool-spinner" aria-hidden="true" />
          <span className="spool-text" aria-hidden="true">
            Applying <strong data-testid="spool-pending-count">{fmtInt(pending)}</strong>{' '}
            acknowledged {plural(pending)}…
          </span>
          <span className="sr-only">
            Applying {fmtInt(spoken)} acknowledged {plural(spoken)}…
          </span>
        </div>
      )}
    </div>
  );
}

/** The failure banner, top of every page, while the spool cannot be applied. */
export function SpoolFailure() {
  const spool = useSpool();
  if (!spool?.failing) return null;
  const reason = spool.failing.trim().replace(/\.+$/, '');
  const shown = reason.length > REASON_MAX ? `${reason.slice(0, REASON_MAX)}…` : reason;
  const n = spool.pendingPayloads;
  return (
    <div className="spool-failure" role="alert" data-testid="spool-failure">
      <span className="spool-failure-icon" aria-hidden="true">
        !
      </span>
      <p>
        <strong className="spool-failure-lead">Calls cannot be stored:</strong>{' '}
        <bdi className="spool-reason" title={spool.failing}>
          {shown}
        </bdi>
        . New flushes get 503
        {n > 0
          ? `; the ${fmtInt(n)} ${plural(n)} already acknowledged ${n === 1 ? 'is' : 'are'} kept and will be stored once this is fixed.`
          : '.'}
      </p>
    </div>
  );
}

/** `value`, updated at most every `ms` (at once when it becomes 0 or stops being 0). */
function useThrottled(value: number, ms: number): number {
  const [held, setHeld] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    if (value === held) return;
    const edge = (value === 0) !== (held === 0);
    const wait = edge ? 0 : Math.max(0, last.current + ms - Date.now());
    const timer = setTimeout(() => {
      last.current = Date.now();
      setHeld(value);
    }, wait);
    return () => clearTimeout(timer);
  }, [value, held, ms]);
  return held;
}
