/**
 * The newest request that missed `/v1/ingest` — the likeliest reason nothing arrives: an
 * endpoint option that already ends in `/v1/ingest`, a trailing slash, another route. Shown on
 * Setup with what to change; every one of them is also on the Ingest log.
 */
import type { Batch } from '../../api/types';
import { Link } from '../../app/router';
import { fmtAgo, fmtInt } from '../../lib/format';

/** The last misdirected request and its hint; nothing when there is none. */
export function MisdirectedNotice({ request }: { request: Batch | null | undefined }) {
  if (!request) return null;
  const times = request.repeats > 1 ? ` (${fmtInt(request.repeats)} times)` : '';
  return (
    <div className="misdirected" role="note" data-testid="setup-misdirected">
      <p className="small">
        <strong>Refused {fmtAgo(request.last_received_ms ?? request.received_ms)}:</strong>{' '}
        <code>
          {request.method} {request.path}
        </code>{' '}
        → {request.status}
        {times}
        {request.user_agent ? (
          <>
            {' '}
            from <code>{request.user_agent}</code>
          </>
        ) : null}
      </p>
      {request.hint && (
        <p className="small misdirected-hint" data-testid="setup-misdirected-hint">
          {request.hint}
        </p>
      )}
      <p className="small muted">
        <Link href="/ingest">Every refused request is on the Ingest log.</Link>
      </p>
    </div>
  );
}
