/**
 * One row of the virtualized sessions list (a placeholder while its page loads). The row is a
 * real link: its title is an `<a href>` stretched over the whole row, so a middle click or
 * Ctrl-click anywhere opens the session in a new tab, and the tick box stays above it.
 */
import { memo } from 'react';
import type { SessionSort, SessionView } from '../../api/types';
import { Link } from '../../app/router';
import { ClockFlag } from '../../components/ClockFlags';
import { OutcomeBar } from '../../components/OutcomeBar';
import { ProxiedBadge } from '../../components/ProxiedBadge';
import { fmtAgo, fmtDateTime, fmtInt, fmtMs, fmtPct, fmtUsd } from '../../lib/format';
import { sessionTitle } from './session-title';

/** Columns; `sort` names the server sort key (the session id and client are not sortable). */
export const SESSION_COLUMNS: {
  label: string;
  sort?: SessionSort;
  num?: boolean;
  asc?: boolean;
  /** Columns that give way first when the table is narrow (sessions.css). */
  hide?: 'narrow' | 'narrower';
}[] = [
  { label: 'Session' },
  { label: 'Client' },
  { label: 'Last seen', sort: 'last_seen' },
  { label: 'Duration', sort: 'duration', num: true, hide: 'narrow' },
  { label: 'Calls', sort: 'calls', num: true },
  { label: 'FCS', sort: 'first_call_success', num: true, asc: true },
  { label: 'Retried', sort: 'retries', num: true, hide: 'narrow' },
  { label: 'Chains', sort: 'chains', num: true },
  { label: 'Cost', sort: 'cost', num: true, hide: 'narrower' },
  { label: 'Outcomes', sort: 'errors' },
];

export const SessionRowView = memo(function SessionRowView({
  index,
  top,
  session: s,
  selected,
  picked,
  onPick,
  href,
}: {
  index: number;
  top: number;
  session: SessionView | undefined;
  selected: boolean;
  picked: string[];
  onPick: (id: string) => void;
  /** The session page, for the row's link. */
  href: string | undefined;
}) {
  if (!s || !href) {
    return (
      <div
        role="row"
        aria-rowindex={index + 2}
        className="vrow placeholder"
        style={{ transform: `translateY(${top}px)` }}
        data-row-index={index}
      >
        <span role="cell" className="vcell pick" />
        <span role="cell" className="vcell">
          <span className="skeleton-bar" />
        </span>
      </div>
    );
  }
  const title = sessionTitle(s);
  const clients = s.clients.join(', ');
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      data-row-index={index}
      data-session={s.id}
      className={`vrow ${selected ? 'selected' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
    >
      <span role="cell" className="vcell pick">
        <input
          type="checkbox"
          checked={picked.includes(s.id)}
          onChange={() => onPick(s.id)}
          aria-label={`Pick ${s.id} to compare`}
        />
      </span>
      <span role="cell" className="vcell vtitle">
        {/* The link covers the row, so the cells' own tooltips say it here instead. */}
        <Link
          href={href}
          className="row-link"
          data-testid="session-link"
          title={`${title} · ${s.id} · last seen ${fmtDateTime(s.last_seen_ms)} · first-call success ${s.first_call_success.successes} of ${s.first_call_success.calls}`}
        >
          <bdi className="row-title" dir="auto">
            {title}
          </bdi>
          <span className="row-sub mono">
            {/* First, so a long id gives way rather than the flag. */}
            <ClockFlag suspect={s.clock_suspect} />
            {s.id} <ProxiedBadge sdk={s.sdk} />
          </span>
        </Link>
      </span>
      <span
        role="cell"
        className={`vcell vclient ${s.clients.length > 1 ? 'several' : ''}`}
        title={clients}
      >
        {/* One line per client (a server process can serve two); a third is counted. */}
        {s.clients.slice(0, s.clients.length > 2 ? 1 : 2).map((c) => (
          <bdi key={c} dir="auto" className="client-line">
            {c}
          </bdi>
        ))}
        {s.clients.length > 2 && (
          <span className="client-line muted">+{s.clients.length - 1} more</span>
        )}
      </span>
      <span role="cell" className="vcell" title={fmtDateTime(s.last_seen_ms)}>
        {fmtAgo(s.last_seen_ms)}
      </span>
      <span role="cell" className="vcell num hide-narrow">
        {fmtMs(s.duration_ms)}
      </span>
      <span role="cell" className="vcell num">
        {fmtInt(s.calls)}
      </span>
      <span
        role="cell"
        className="vcell num"
        title={`${s.first_call_success.successes} of ${s.first_call_success.calls}`}
      >
        {fmtPct(s.first_call_success.rate)}
      </span>
      <span role="cell" className="vcell num hide-narrow">
        {fmtInt(s.retries)}
      </span>
      <span role="cell" className="vcell num">
        {fmtInt(s.retry_chains)}
      </span>
      <span role="cell" className="vcell num hide-narrower">
        {fmtUsd(s.cost_usd)}
      </span>
      <span role="cell" className="vcell">
        <OutcomeBar outcomes={s.outcomes} compact />
      </span>
    </div>
  );
});
