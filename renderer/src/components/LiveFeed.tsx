/**
 * Calls as they arrive over the stream, newest on top. The hub already coalesces bursts, so
 * this renders at most a few times a second and never more than {@link ROWS} rows.
 */
import { useMemo } from 'react';
import { outcomeKey, OUTCOME_LABEL } from '../api/core-types';
import { useLive } from '../api/live';
import { useFilters } from '../app/filters';
import { Link } from '../app/router';
import { useAppData } from '../app/status';
import { fmtMs, fmtTimeMs } from '../lib/format';
import { Name } from './Name';
import './live-feed.css';

const ROWS = 40;

export function LiveFeed() {
  const { feed, state } = useLive();
  const { filters, link } = useFilters();
  const { projects } = useAppData();
  const projectId = filters.project
    ? (projects.find((p) => p.key_prefix === filters.project)?.id ?? -1)
    : undefined;
  const rows = useMemo(
    () =>
      feed
        .filter(
          (c) =>
            (projectId === undefined || c.project_id === projectId) &&
            (!filters.tool || c.tool_name === filters.tool) &&
            (!filters.client || c.client_name === filters.client),
        )
        .slice(0, ROWS),
    [feed, projectId, filters.tool, filters.client],
  );
  if (rows.length === 0) {
    return (
      <div className="feed-empty" data-testid="live-feed">
        {state === 'open'
          ? 'Listening… calls appear here the moment an SDK flushes.'
          : 'Connecting to the live stream…'}
      </div>
    );
  }
  return (
    <ol className="feed" data-testid="live-feed" aria-live="polite">
      {rows.map((c) => {
        const o = outcomeKey(c);
        return (
          <li key={c.id} className="feed-row">
            <span className="feed-time">{fmtTimeMs(c.started_ms)}</span>
            <span className={`dot o-${o}`} title={OUTCOME_LABEL[o]} />
            <Link
              href={link('/session', { id: c.session_id })}
              className="feed-tool"
              title={`${c.tool_name} — open session`}
            >
              <Name text={c.tool_name} />
            </Link>
            <span className="feed-ms">{fmtMs(c.duration_ms)}</span>
          </li>
        );
      })}
    </ol>
  );
}
