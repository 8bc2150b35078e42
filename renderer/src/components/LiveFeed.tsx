/**
 * Calls as they arrive over the stream, newest on top. The hub already coalesces bursts, so
 * this renders at most a few times a second and never more than {@link ROWS} rows.
 */
import { useMemo } from 'react';
import { outcomeKey, OUTCOME_LABEL, type Call } from '../api/types';
import { metricsPaths } from '../api/metrics';

import { useApi } from '../hooks/useApi';
import { useLive } from '../api/live';
import { useFilters } from '../app/filters';
import { Link } from '../app/router';
import { useAppData } from '../app/status';
import { fmtMs, fmtTimeMs } from '../lib/format';
import { findProject } from '../app/ProjectWarning';
import { ToolLink } from './ToolLink';
import './live-feed.css';

const ROWS = 40;

export function LiveFeed() {
  const { feed, state } = useLive();
  const { filters, link } = useFilters();
  const { projects } = useAppData();
  const projectId = filters.project
    ? (findProject(projects, filters.project)?.id ?? -1)
    : undefined;
  // The newest calls already stored fill the feed on open; the stream prepends what arrives.
  const recent = useApi(metricsPaths.calls(filters, { limit: ROWS }), {
    live: false,
  });
  const { list: rows, liveIds } = useMemo(() => {
    const live = feed.filter(
      (c) =>
        (projectId === undefined || c.project_id === projectId) &&
        (!filters.tool || c.tool_name === filters.tool) &&
        (!filters.client || c.client_name === filters.client),
    );
    const seen = new Set(live.map((c) => c.id));
    const stored = (recent.data?.calls ?? []).filter((c) => !seen.has(c.id));
    return { list: [...live, ...stored].slice(0, ROWS), liveIds: seen };
  }, [feed, recent.data, projectId, filters.tool, filters.client]);
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
        const o = outcomeKey({ outcome: c.outcome as Call['outcome'], is_empty: c.is_empty });
        return (
          <li key={c.id} className={liveIds.has(c.id) ? 'feed-row fresh' : 'feed-row'}>
            {/* The time opens the call's session; the name opens the tool, as everywhere. */}
            <Link
              href={link('/session', { id: c.session_id })}
              className="feed-time"
              title={`Open session ${c.session_id}`}
            >
              {fmtTimeMs(c.started_ms)}
            </Link>
            <span className={`dot o-${o}`} title={OUTCOME_LABEL[o]} aria-hidden="true" />
            <ToolLink name={c.tool_name} className="feed-tool" />
            {/* Text beside the colour: a failure reads as a word, not only a dot. */}
            {o === 'ok' ? (
              <span className="sr-only">ok</span>
            ) : (
              <span className={`feed-outcome t-${o}`}>{OUTCOME_LABEL[o]}</span>
            )}
            <span className="feed-ms">{fmtMs(c.duration_ms)}</span>
          </li>
        );
      })}
    </ol>
  );
}
