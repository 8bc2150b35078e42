/**
 * Sessions: every session in the view, searched and sorted by the server, read page by page
 * as you scroll a virtualized list, so 10,000 sessions scroll as smoothly as 10. Each row is
 * named by what the session did and is a real link (middle-click opens a tab). Tick two to
 * compare them; `/` searches, `j`/`k` move, Enter opens.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import { metricsPaths } from '../../api/metrics';
import type { SessionPage, SessionSort } from '../../api/types';
import { useFilters } from '../../app/filters';
import { hrefOf, Link, navigate, useLocation, withParams } from '../../app/router';
import { useAppData } from '../../app/status';
import { ariaSort, sortHint, SortIndicator } from '../../components/SortableTable';
import { ErrorState, NoDataYet } from '../../components/States';
import { useListNav } from '../../hooks/useHotkeys';
import { usePagedList } from '../../hooks/usePagedList';
import { fmtInt } from '../../lib/format';
import { SessionRowView, SESSION_COLUMNS } from './SessionRow';
import './sessions.css';

/** Two lines: the session's name, and its id under it. */
const ROW_H = 46;
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
  const [selected] = useListNav(total, open, { scrollTo });

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
          placeholder="Search name, session or client  /"
          value={q}
          onChange={(e) => setParams({ q: e.target.value || null })}
          aria-label="Search sessions"
        />
      </div>
      <div
        className="vtable"
        role="table"
        aria-label="Sessions"
        aria-rowcount={total + 1}
        data-testid="sessions"
        // As tall as its rows, up to the window: eight sessions do not sit above a blank panel.
        style={{ height: `min(calc(100vh - 140px), ${Math.max(total, 3) * ROW_H + 32}px)` }}
      >
        <div className="vrow vhead" role="row" aria-rowindex={1}>
          <span className="vcell pick" role="columnheader">
            <span className="sr-only">Compare</span>
          </span>
          {SESSION_COLUMNS.map((c) => {
            const active = sortKey === c.sort;
            return (
              <span
                key={c.label}
                role="columnheader"
                aria-sort={c.sort ? ariaSort(active, order) : undefined}
                className={`vcell ${c.num ? 'num' : ''} ${c.hide ? `hide-${c.hide}` : ''}`}
              >
                {c.sort ? (
                  <button
                    type="button"
                    onClick={() => onSort(c.sort!, c.asc)}
                    title={sortHint(c.label, active, order)}
                  >
                    {c.label}
                    <SortIndicator active={active} dir={order} />
                  </button>
                ) : (
                  c.label
                )}
              </span>
            );
          })}
        </div>
        <div className="vbody" ref={scroller} role="rowgroup">
          {list.total === 0 ? (
            <div role="row">
              <div role="cell" className="empty-row">
                {q ? `No session matches “${q}”.` : 'No sessions in this view.'}
              </div>
            </div>
          ) : (
            <div className="vspace" style={{ height: virtual.getTotalSize() }}>
              {items.map((v) => {
                const s = list.rowAt(v.index);
                return (
                  <SessionRowView
                    key={v.index}
                    index={v.index}
                    top={v.start}
                    session={s}
                    selected={v.index === selected}
                    picked={picked}
                    onPick={togglePick}
                    href={s ? link('/session', { id: s.id }) : undefined}
                  />
                );
              })}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
