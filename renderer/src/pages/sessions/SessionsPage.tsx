/**
 * Sessions: every session in the view, searched and sorted by the server, read page by page
 * as you scroll a virtualized list, so 10,000 sessions scroll as smoothly as 10. Tick two to
 * compare them; `/` searches, `j`/`k` move, Enter opens.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import { metricsPaths } from '../../api/metrics';
import type { SessionPage, SessionSort } from '../../api/types';
import { useFilters } from '../../app/filters';
import { hrefOf, Link, navigate, useLocation, withParams } from '../../app/router';
import { useAppData } from '../../app/status';
import { ErrorState, NoDataYet } from '../../components/States';
import { useListNav } from '../../hooks/useHotkeys';
import { usePagedList } from '../../hooks/usePagedList';
import { fmtInt } from '../../lib/format';
import { SessionRowView, SESSION_COLUMNS } from './SessionRow';
import './sessions.css';

const ROW_H = 34;
const rowsOf = (b: SessionPage) => ({ rows: b.sessions, total: b.total });

export function SessionsPage() {
  const loc = useLocation();
  const { filters, link } = useFilters();
  const { hasData } = useAppData();
  const q = loc.params.get('q') ?? '';
  const sortKey = (loc.params.get('sort')?.replace(/^-/, '') || 'last_seen') as SessionSort;
  const order = loc.params.get('sort')?.startsWith('-') === false ? 'asc' : 'desc';
  const list = usePagedList(
    metricsPaths.sessions(filters, { q: q.trim() || undefined, sort: sortKey, order }),
    rowsOf,
  );
  const total = list.total ?? 0;
  const [picked, setPicked] = useState<string[]>(() => {
    const pre = loc.params.get('compare');
    return pre ? [pre] : [];
  });
  const setParams = (changes: Record<string, string | null>): void =>
    navigate(hrefOf('/sessions', withParams(loc.params, changes)), { replace: true });

  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_H,
    overscan: 16,
  });
  const items = virtual.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items.at(-1)?.index ?? 0;
  const { ensure } = list;
  useEffect(() => ensure(firstIndex, lastIndex), [ensure, firstIndex, lastIndex]);

  const open = useCallback(
    (i: number) => {
      const s = list.rowAt(i);
      if (s) navigate(link('/session', { id: s.id }));
    },
    [list, link],
  );
  const scrollTo = useCallback(
    (i: number) => virtual.scrollToIndex(i, { align: 'auto' }),
    [virtual],
  );
  const [selected, setSelected] = useListNav(total, open, { scrollTo });

  if (hasData === false) return <NoDataYet />;
  if (list.error && list.total === null) return <ErrorState message={list.error} />;

  const togglePick = (id: string): void =>
    setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  const onSort = (key: SessionSort, asc?: boolean): void => {
    const dir = sortKey === key ? (order === 'asc' ? 'desc' : 'asc') : asc ? 'asc' : 'desc';
    setParams({ sort: dir === 'desc' ? `-${key}` : key });
  };

  return (
    <div className="sessions-page">
      <div className="page-head">
        <h1>Sessions</h1>
        <span className="sub" data-testid="sessions-count">
          {list.total === null
            ? 'Loading…'
            : `${fmtInt(total)} ${total === 1 ? 'session' : 'sessions'}${q ? ` matching “${q}”` : ''}`}
        </span>
        <div className="spacer" />
        {picked.length === 1 && <span className="muted small-text">Tick one more to compare</span>}
        <Link
          className={`btn ${picked.length === 2 ? 'primary' : ''}`}
          href={
            picked.length === 2
              ? link('/compare', { a: picked[0], b: picked[1] })
              : link('/sessions')
          }
          aria-disabled={picked.length !== 2}
          onClick={(e) => picked.length !== 2 && e.preventDefault()}
          data-testid="compare-button"
        >
          Compare{picked.length ? ` (${picked.length}/2)` : ''}
        </Link>
        <input
          className="input search"
          data-search
          type="search"
          placeholder="Search session or client  /"
          value={q}
          onChange={(e) => setParams({ q: e.target.value || null })}
          aria-label="Search sessions"
        />
      </div>
      <div className="vtable" role="grid" aria-rowcount={total} data-testid="sessions">
        <div className="vrow vhead" role="row">
          <span className="vcell pick" />
          {SESSION_COLUMNS.map((c) => (
            <span key={c.label} role="columnheader" className={`vcell ${c.num ? 'num' : ''}`}>
              {c.sort ? (
                <button type="button" onClick={() => onSort(c.sort!, c.asc)}>
                  {c.label}
                  <span className={sortKey === c.sort ? 'sort-ind on' : 'sort-ind'}>
                    {sortKey === c.sort ? (order === 'asc' ? '↑' : '↓') : '↕'}
                  </span>
                </button>
              ) : (
                c.label
              )}
            </span>
          ))}
        </div>
        <div className="vbody" ref={scroller}>
          {list.total === 0 ? (
            <div className="empty-row">
              {q ? `No session matches “${q}”.` : 'No sessions in this view.'}
            </div>
          ) : (
            <div className="vspace" style={{ height: virtual.getTotalSize() }}>
              {items.map((v) => (
                <SessionRowView
                  key={v.index}
                  index={v.index}
                  top={v.start}
                  session={list.rowAt(v.index)}
                  selected={v.index === selected}
                  picked={picked}
                  onPick={togglePick}
                  onOpen={() => {
                    setSelected(v.index);
                    open(v.index);
                  }}
                />
              ))}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
