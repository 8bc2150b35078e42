/**
 * Calls: the rows behind every number. Links from other pages narrow it with the global
 * filters plus metric conditions the server applies exactly (`outcome`, `first_call_success`,
 * `retried`, `latency`, `chain`, `session`), newest first, a page at a time.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { LATENCY_LABELS } from '../../app/active-filters';
import { parseSort, sortParam, sortRows } from '../../components/SortableTable';
import { ColumnMenu } from '../../components/table/ColumnMenu';
import { useColumnVisibility } from '../../components/table/columns';
import { OUTCOME_KEYS, OUTCOME_LABEL } from '../../api/types';
import { describeError } from '../../api/http';
import { metricsPaths } from '../../api/metrics';
import type { CallView } from '../../api/types';
import { useFilters } from '../../app/filters';
import { getLocation, hrefOf, Link, navigate, useLocation, withParams } from '../../app/router';
import { useAppData } from '../../app/status';
import { ErrorState, Loading, NoDataYet, NoMatch, StaleBanner } from '../../components/States';
import { useListNav } from '../../hooks/useHotkeys';
import { getApi, withQuery } from '../../api/api';
import { useApi } from '../../hooks/useApi';
import { fmtInt } from '../../lib/format';
import { CallDetails } from '../../components/details/CallDetails';
import { callColumns, CallsTable } from './CallsTable';
import { CALL_CONDITIONS } from '../../app/active-filters';
import './calls.css';

const DEFAULT_SORT = { key: 'started', dir: 'desc' } as const;

export function CallsPage() {
  const loc = useLocation();
  const { filters, link } = useFilters();
  const { hasData } = useAppData();
  const cond: Record<string, string | undefined> = {};
  for (const k of CALL_CONDITIONS) cond[k] = loc.params.get(k) ?? undefined;
  const path = metricsPaths.calls(filters, { ...cond, limit: 200 });
  const sort = parseSort(loc.params.get('sort'), DEFAULT_SORT);
  const allColumns = useMemo(() => callColumns(link), [link]);
  const cols = useColumnVisibility('calls', allColumns);
  const first = useApi(path);
  const [more, setMore] = useState<{
    path: string;
    calls: CallView[];
    cursor: string | null;
    error?: string;
  }>({
    path,
    calls: [],
    cursor: null,
  });
  const extra = more.path === path ? more : { path, calls: [], cursor: null };
  const extraCalls = extra.calls;
  const loaded = useMemo(
    () => [...(first.data?.calls ?? []), ...extraCalls],
    [first.data, extraCalls],
  );
  // The server pages newest first; another order sorts what is loaded (the count says so).
  const sorted = sort.key !== DEFAULT_SORT.key || sort.dir !== DEFAULT_SORT.dir;
  const rows = useMemo(() => {
    if (!sorted) return loaded;
    const col = allColumns.find((c) => c.key === sort.key);
    return col?.sortValue ? sortRows(loaded, sort, (r) => col.sortValue!(r)) : loaded;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, sort.key, sort.dir, allColumns]);
  const cursor = extra.calls.length ? extra.cursor : (first.data?.next_cursor ?? null);

  const loadMore = (): void => {
    if (!cursor) return;
    getApi(withQuery(path, { cursor }))
      .then((p) => setMore({ path, calls: [...extra.calls, ...p.calls], cursor: p.next_cursor }))
      .catch((e: unknown) => setMore({ ...extra, error: describeError(e) }));
  };

  const open = useCallback(
    (i: number) => {
      const c = rows[i];
      if (c) navigate(link('/session', { id: c.session_id, call: c.id }));
    },
    [rows, link],
  );
  const [selected, setSelected] = useListNav(rows.length, open);
  // The selection is the call's id in the URL (`call`): it survives a reload, can be linked,
  // and follows the call when live updates push new rows on top.
  const urlCall = Number(loc.params.get('call')) || undefined;
  const selectedId = useRef<number | undefined>(urlCall);
  useEffect(() => {
    if (selected < 0 && selectedId.current !== undefined && rows.length === 0) return;
    const id = selected >= 0 ? rows[selected]?.id : undefined;
    if (id === selectedId.current) return;
    selectedId.current = id;
    navigate(hrefOf('/calls', withParams(getLocation().params, { call: id ?? null })), {
      replace: true,
    });
    // Only a move of the selection writes the URL; a new list is handled below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected]);
  useEffect(() => {
    const id = selectedId.current;
    if (id === undefined || rows[selected]?.id === id) return;
    const i = rows.findIndex((c) => c.id === id);
    if (i >= 0) setSelected(i);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rows]);
  const set = (changes: Record<string, string | null>): void =>
    navigate(hrefOf('/calls', withParams(loc.params, changes)), { replace: true });

  if (hasData === false) return <NoDataYet />;
  if (first.error && !first.data) return <ErrorState message={first.error} />;

  return (
    <div className="calls-page">
      <div className="page-head">
        <h1>Calls</h1>
        <span className="sub" data-testid="calls-count">
          {first.data ? countText(rows.length, first.data.total, sorted) : 'Loading…'}
        </span>
      </div>
      <div className="calls-tools">
        <input
          className="input search"
          type="search"
          data-search
          placeholder="Filter: tool, client, session, hash"
          aria-label="Filter calls"
          defaultValue={cond.q ?? ''}
          onChange={(e) => set({ q: e.target.value || null, call: null })}
        />
        <div className="seg" role="group" aria-label="Outcome">
          <button className={!cond.outcome ? 'on' : ''} onClick={() => set({ outcome: null })}>
            All
          </button>
          {OUTCOME_KEYS.map((k) => (
            <button
              key={k}
              className={cond.outcome === k ? 'on' : ''}
              onClick={() => set({ outcome: k })}
            >
              <span className={`dot o-${k}`} /> {OUTCOME_LABEL[k]}
            </button>
          ))}
        </div>
        <select
          className="select"
          value={cond.first_call_success ?? ''}
          onChange={(e) => set({ first_call_success: e.target.value || null })}
          aria-label="First-call success"
        >
          <option value="">Any first-call result</option>
          <option value="true">First-call successes</option>
          <option value="false">Not first-call successes</option>
        </select>
        <select
          className="select"
          value={cond.latency ?? ''}
          onChange={(e) => set({ latency: e.target.value || null })}
          aria-label="Latency"
        >
          <option value="">Any latency</option>
          {Object.entries(LATENCY_LABELS).map(([k, l]) => (
            <option key={k} value={k}>
              {l}
            </option>
          ))}
        </select>
        <ColumnMenu columns={allColumns} hidden={cols.hidden} onToggle={cols.toggle} />
      </div>
      {cond.session && (
        <div className="scope">
          <Link href={link('/session', { id: cond.session })}>open the session timeline</Link>
        </div>
      )}
      {first.error && <StaleBanner message={first.error} />}
      {!first.data ? (
        <Loading rows={8} />
      ) : (
        <div className="with-details">
          <div className="calls-main">
            <CallsTable
              rows={rows}
              columns={cols.visible}
              sort={sort}
              onSort={(next) =>
                set({
                  sort: next.key === 'started' && next.dir === 'desc' ? null : sortParam(next),
                })
              }
              empty={<NoMatch compact />}
              selected={selected}
              onSelect={setSelected}
              onOpen={(i) => {
                setSelected(i);
                open(i);
              }}
            />
            {cursor && (
              <div className="more">
                <button className="btn" onClick={loadMore}>
                  Load older calls
                </button>
                {extra.error && <span className="err-text">{extra.error}</span>}
              </div>
            )}
          </div>
          <CallDetails
            call={rows[selected]}
            sessionHref={
              rows[selected]
                ? link('/session', { id: rows[selected].session_id, call: rows[selected].id })
                : undefined
            }
            onClose={() => setSelected(-1)}
            hint={
              <>
                Select a call to see why it is or is not a first-call success. <kbd>j</kbd>/
                <kbd>k</kbd> move, <kbd>Enter</kbd> opens its session.
              </>
            }
          />
        </div>
      )}
    </div>
  );
}

/**
 * The exact count: every call matching the view (the server counts all pages), and how many
 * are loaded when that is fewer.
 */
function countText(loaded: number, total: number, sorted: boolean): string {
  const noun = total === 1 ? 'call' : 'calls';
  if (loaded >= total) return `${fmtInt(total)} ${noun}`;
  return `${fmtInt(total)} ${noun} · ${fmtInt(loaded)} loaded${sorted ? ', sorted' : ''}`;
}
