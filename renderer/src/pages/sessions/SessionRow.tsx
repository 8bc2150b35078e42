/** One row of the virtualized sessions list (a placeholder while its page loads). */
import { memo } from 'react';
import type { SessionSort, SessionView } from '../../api/types';
import { Name } from '../../components/Name';
import { OutcomeBar } from '../../components/OutcomeBar';
import { fmtAgo, fmtDateTime, fmtInt, fmtMs, fmtPct, fmtUsd } from '../../lib/format';

/** Columns; `sort` names the server sort key (the session id and client are not sortable). */
export const SESSION_COLUMNS: {
  label: string;
  sort?: SessionSort;
  num?: boolean;
  asc?: boolean;
}[] = [
  { label: 'Session' },
  { label: 'Client' },
  { label: 'Last seen', sort: 'last_seen' },
  { label: 'Duration', sort: 'duration', num: true },
  { label: 'Calls', sort: 'calls', num: true },
  { label: 'FCS', sort: 'first_call_success', num: true, asc: true },
  { label: 'Retried', sort: 'retries', num: true },
  { label: 'Chains', sort: 'chains', num: true },
  { label: 'Cost', sort: 'cost', num: true },
  { label: 'Outcomes', sort: 'errors' },
];

export const SessionRowView = memo(function SessionRowView({
  index,
  top,
  session: s,
  selected,
  picked,
  onPick,
  onOpen,
}: {
  index: number;
  top: number;
  session: SessionView | undefined;
  selected: boolean;
  picked: string[];
  onPick: (id: string) => void;
  onOpen: () => void;
}) {
  if (!s) {
    return (
      <div
        className="vrow placeholder"
        style={{ transform: `translateY(${top}px)` }}
        data-row-index={index}
      >
        <span role="gridcell" className="vcell pick" />
        <span role="gridcell" className="vcell">
          <span className="skeleton-bar" />
        </span>
      </div>
    );
  }
  return (
    <div
      role="row"
      data-row-index={index}
      data-session={s.id}
      className={`vrow ${selected ? 'selected' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      onClick={onOpen}
    >
      <span role="gridcell" className="vcell pick" onClick={(e) => e.stopPropagation()}>
        <input
          type="checkbox"
          checked={picked.includes(s.id)}
          onChange={() => onPick(s.id)}
          aria-label={`Pick ${s.id} to compare`}
        />
      </span>
      <span role="gridcell" className="vcell mono">
        <Name text={s.id} />
      </span>
      <span role="gridcell" className="vcell">
        <Name text={s.clients.join(', ')} />
      </span>
      <span role="gridcell" className="vcell" title={fmtDateTime(s.last_seen_ms)}>
        {fmtAgo(s.last_seen_ms)}
      </span>
      <span role="gridcell" className="vcell num">
        {fmtMs(s.duration_ms)}
      </span>
      <span role="gridcell" className="vcell num">
        {fmtInt(s.calls)}
      </span>
      <span
        className="vcell num"
        title={`${s.first_call_success.successes} of ${s.first_call_success.calls}`}
      >
        {fmtPct(s.first_call_success.rate)}
      </span>
      <span role="gridcell" className="vcell num">
        {fmtInt(s.retries)}
      </span>
      <span role="gridcell" className="vcell num">
        {fmtInt(s.retry_chains)}
      </span>
      <span role="gridcell" className="vcell num">
        {fmtUsd(s.cost_usd)}
      </span>
      <span role="gridcell" className="vcell">
        <OutcomeBar outcomes={s.outcomes} compact />
      </span>
    </div>
  );
});
