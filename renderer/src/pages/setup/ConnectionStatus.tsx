/**
 * "Is my SDK connected?": waits for the first payload and turns to "connected: <client>,
 * <session>, N calls" the moment one lands (the live stream bumps, `GET /api/connection`
 * answers). Until then it lists what to check; after, it flags sessions whose last batch looks
 * lost (docs/metrics.md, "Lost last batch").
 */
import { Link } from '../../app/router';
import { apiPath, useApi } from '../../api/api';
import { fmtAgo, fmtInt } from '../../lib/format';
import { Ticks } from '../../lib/ticks';
import { endingText } from '../sessions/LostBatchNotice';
import { sessionTitle } from '../sessions/session-title';
import { MisdirectedNotice } from './MisdirectedNotice';
import { WAITING_CHECKS } from './sdk-snippets';

/** The Setup page's Connection panel: waiting (and what to check), or connected. */
export function ConnectionStatus() {
  const { data, error } = useApi(apiPath('connection'));
  if (!data) {
    return (
      <div className="connection" data-testid="connection-state">
        {error ? `Cannot check the connection: ${error}` : 'Checking…'}
      </div>
    );
  }
  const { latest, lost_batches, misdirected } = data;
  if (latest === null) {
    return (
      <div className="connection waiting">
        <MisdirectedNotice request={misdirected} />
        <p className="connection-line" data-testid="connection-state" aria-live="polite">
          <span className="pulse" aria-hidden="true" />
          waiting for the first payload…
        </p>
        <p className="muted small">Nothing yet? Check, in this order:</p>
        <ol className="checks">
          {WAITING_CHECKS.map((c) => (
            <li key={c}>
              <Ticks text={c} />
            </li>
          ))}
        </ol>
      </div>
    );
  }
  const session = `/session?id=${encodeURIComponent(latest.session_id)}&project=${latest.project_id}`;
  const name = sessionTitle({ ...latest, clients: [latest.client_name] });
  return (
    <div className="connection connected">
      <p className="connection-line" data-testid="connection-state" aria-live="polite">
        connected: <bdi>{name}</bdi>, {fmtInt(latest.calls)} {latest.calls === 1 ? 'call' : 'calls'}
      </p>
      <p className="muted small">
        <span data-testid="connection-session">
          client {latest.client_name} · session <code>{latest.session_id}</code>
        </span>
        {' · '}last payload {fmtAgo(latest.received_ms)}
        {latest.calls > 0 ? (
          <>
            {' · '}
            <Link href={session}>open the session</Link>
          </>
        ) : (
          ' · a startup so far: calls appear on the next flush'
        )}
      </p>
      <MisdirectedNotice request={misdirected} />
      {lost_batches.length > 0 && (
        <div className="lost-batches" data-testid="lost-batches">
          <p className="small">
            <strong>Last batch probably lost</strong> in {lost_batches.length}{' '}
            {lost_batches.length === 1 ? 'recent session' : 'recent sessions'}:
          </p>
          <ul>
            {lost_batches.map((e) => (
              <li key={`${e.project_id}:${e.session_id}`} className="small">
                <code>{e.session_id}</code> ({e.client_name}): <Ticks text={endingText(e)} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
