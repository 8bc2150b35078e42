/**
 * The selected call, in full, beside its table (the DevTools pattern: select a row, read it in
 * the panel). The table cell says the verdict in a word; this says why in the API's own
 * sentence, with every fact behind it and the fields the SDK sent beyond the contract.
 */
import { useEffect, type ReactNode } from 'react';
import { OUTCOME_LABEL } from '../../api/types';
import type { CallView } from '../../api/types';
import { isUnhashable, reasonText } from '../../api/session-facts';
import { apiPath, useApi } from '../../api/api';
import { Link } from '../../app/router';
import { sessionTitle } from '../../pages/sessions/session-title';
import { isTyping } from '../../hooks/useHotkeys';
import { fmtDateTime, fmtMs, fmtTok, fmtUnits } from '../../lib/format';
import { verdictOf } from '../../lib/verdict';
import { CopyButton } from '../CopyButton';
import { Name } from '../Name';
import { ToolLink } from '../ToolLink';
import { CallContentSection } from './CallContentSection';
import './details.css';

export interface CallDetailsProps {
  call: CallView | undefined;
  /** Where "Open in session" goes; omitted on the session page itself. */
  sessionHref?: string;
  /** "chain 2" for a call in the session's second retry chain. */
  chainLabel?: string;
  onClose?: () => void;
  /** What to say when no row is selected. */
  hint?: ReactNode;
}

export function CallDetails({ call: c, sessionHref, chainLabel, onClose, hint }: CallDetailsProps) {
  // Escape closes the panel (a drawer over the table on narrow windows).
  useEffect(() => {
    if (!c || !onClose) return;
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape' && !isTyping(e)) onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [c, onClose]);
  if (!c)
    return (
      <aside className="call-details empty" aria-label="Call details" data-testid="call-details">
        <p className="muted">
          {hint ?? (
            <>
              Select a call to see why it is or is not a first-call success. <kbd>j</kbd>/
              <kbd>k</kbd> move the selection.
            </>
          )}
        </p>
      </aside>
    );
  const v = verdictOf(c);
  const o = c.outcome_class;
  const extras = c.extra ? Object.entries(c.extra) : [];
  return (
    <aside className="call-details" aria-label="Call details" data-testid="call-details">
      <header className="cd-head">
        <span className={`dot o-${o}`} aria-hidden="true" />
        <ToolLink name={c.tool_name} className="cd-tool" />
        <span className="muted">{OUTCOME_LABEL[o]}</span>
        <div className="spacer" />
        {onClose && (
          <button
            type="button"
            className="btn small ghost"
            onClick={onClose}
            aria-label="Close details"
          >
            ×
          </button>
        )}
      </header>
      <section className={`cd-verdict ${v.ok ? 'yes' : 'no'}`}>
        <div className="cd-verdict-title">
          <span className={`verdict ${v.ok ? 'yes' : 'no'}`} aria-hidden="true">
            {v.ok ? '✓' : '✗'}
          </span>
          {v.ok ? 'First-call success' : 'Not a first-call success'}
        </div>
        <p data-testid="call-reason">{reasonText(c.reason)}</p>
      </section>
      <dl className="cd-facts">
        <dt>Started</dt>
        <dd title={c.started_at}>
          {fmtDateTime(c.started_ms)}.
          {String(((c.started_ms % 1000) + 1000) % 1000).padStart(3, '0')}
        </dd>
        <dt>Duration</dt>
        <dd>{fmtMs(c.duration_ms)}</dd>
        <dt>Response</dt>
        <dd>
          {fmtTok(c.response_bytes)} tok{' '}
          <span className="muted">({fmtUnits(c.response_bytes)} UTF-16 units)</span>
          {c.is_empty && <span className="badge cd-tag">empty</span>}
        </dd>
        <dt>args_hash</dt>
        <dd className="cd-hash">
          <code>{c.args_hash}</code>
          {isUnhashable(c) ? (
            <span className="warn-text"> arguments could not be hashed</span>
          ) : (
            <CopyButton text={c.args_hash} label="Copy" />
          )}
        </dd>
        <dt>Client</dt>
        <dd>
          <Name text={c.client_name} />
        </dd>
        {sessionHref && (
          <>
            <dt>Session</dt>
            <dd>
              <SessionLink href={sessionHref} sessionId={c.session_id} projectId={c.project_id} />
            </dd>
          </>
        )}
        <dt>Before</dt>
        <dd>{previousText(c)}</dd>
        <dt>After</dt>
        <dd>{nextText(c)}</dd>
        {chainLabel && (
          <>
            <dt>Retry chain</dt>
            <dd>{chainLabel}</dd>
          </>
        )}
      </dl>
      {extras.length > 0 && (
        <section className="cd-extra" data-testid="call-extra">
          <h3>Sent beyond the contract</h3>
          <dl className="cd-facts">
            {extras.map(([k, value]) => (
              <div key={k} className="cd-pair">
                <dt>
                  <Name text={k} mono />
                </dt>
                <dd className="mono">{JSON.stringify(value)}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      <CallContentSection callId={c.id} sessionId={c.session_id} />
      {sessionHref && (
        <footer className="cd-foot">
          <Link className="btn small" href={sessionHref}>
            Open in session timeline
          </Link>
        </footer>
      )}
    </aside>
  );
}

function previousText(c: CallView): string {
  if (c.retry_of_previous) return `A retry: the previous ${c.tool_name} call had other arguments.`;
  if (c.repeat_of_previous) return `A repeat: same arguments as the previous ${c.tool_name} call.`;
  return `No ${c.tool_name} call within 30 s before it.`;
}

function nextText(c: CallView): string {
  const gap = c.next_gap_ms === null ? '' : ` ${fmtMs(c.next_gap_ms)} later`;
  if (c.retried) return `Retried${gap} with different arguments.`;
  if (c.repeated) return `Repeated${gap} with the same arguments.`;
  if (c.unknown_link) return `Called again${gap}; arguments not comparable.`;
  return `No ${c.tool_name} call within 30 s after it.`;
}

/**
 * The call's session by its name (the producer's label, else client → first tool · time), the
 * raw `s_…` id as secondary text: ids are random and say nothing on their own.
 */
function SessionLink({
  href,
  sessionId,
  projectId,
}: {
  href: string;
  sessionId: string;
  projectId: number;
}) {
  const { data } = useApi(
    apiPath('sessions', `?session=${encodeURIComponent(sessionId)}&project=${projectId}&limit=1`),
  );
  const session = data?.sessions[0];
  return (
    <Link href={href} data-testid="call-session">
      {session && (
        <>
          <bdi dir="auto">{sessionTitle(session)}</bdi>{' '}
        </>
      )}
      <span className="mono faint">{sessionId}</span>
    </Link>
  );
}
