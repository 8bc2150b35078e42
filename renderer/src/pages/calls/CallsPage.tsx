/**
 * Calls: the rows behind every number. Links from other pages narrow it with the global
 * filters plus metric conditions the server applies exactly (`outcome`, `first_call_success`,
 * `retried`, `latency`, `chain`, `session`), newest first, a page at a time.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { OUTCOME_KEYS, OUTCOME_LABEL } from '../../api/types';
import { describeError } from '../../api/http';
import { metricsPaths } from '../../api/metrics';
import type { CallView } from '../../api/types';
import { useFilters } from '../../app/filters';
import { hrefOf, Link, navigate, useLocation, withParams } from '../../app/router';
import { useAppData } from '../../app/status';
import { ErrorState, Loading, NoDataYet, StaleBanner } from '../../components/States';
import { useListNav } from '../../hooks/useHotkeys';
import { getApi, withQuery } from '../../api/api';
import { useApi } from '../../hooks/useApi';
import { fmtInt } from '../../lib/format';
import { CallDetails } from '../../components/details/CallDetails';
import { CallsTable } from './CallsTable';
import './calls.css';

/** URL keys this page passes to /api/metrics/calls as they are. */
const CONDITIONS = [
  'session',
  'outcome',
  'first_call_success',
  'retried',
  'latency',
  'chain',
  'in_chain',
] as const;

const LATENCY_LABELS: Record<string, string> = {
  under_100: '< 100 ms',
  under_500: '100–500 ms',
  under_2000: '0.5–2 s',
  over_2000: '≥ 2 s',
};

export function CallsPage() {
  const loc = useLocation();
  const { filters, link } = useFilters();
  const { hasData } = useAppData();
  const cond: Record<string, string | undefined> = {};
  for (const k of CONDITIONS) cond[k] = loc.params.get(k) ?? undefined;
  const path = metricsPaths.calls(filters, { ...cond, limit: 200 });
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
  const rows = useMemo(
    () => [...(first.data?.calls ?? []), ...extraCalls],
    [first.data, extraCalls],
  );
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
  // The selection follows the call, not the row number: live updates put new calls on top, and
  // the details panel must not jump to whichever call slid into the selected row.
  const selectedId = useRef<number | undefined>(undefined);
  useEffect(() => {
    selectedId.current = selected >= 0 ? rows[selected]?.id : undefined;
    // Only a move of the selection re-pins it; a new list is handled below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected]);
  useEffect(() => {
    const id = selectedId.current;
    if (id === undefined || rows[selected]?.id === id) return;
    setSelected(rows.findIndex((c) => c.id === id));
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
          {first.data
            ? `${fmtInt(rows.length)}${cursor ? '+' : ''} ${rows.length === 1 ? 'call' : 'calls'}`
            : 'Loading…'}
        </span>
        <div className="spacer" />
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
      </div>
      <ActiveConditions
        cond={cond}
        onClear={(k) => set({ [k]: null })}
        sessionLink={cond.session ? link('/session', { id: cond.session }) : undefined}
      />
      {first.error && <StaleBanner message={first.error} />}
      {!first.data ? (
        <Loading rows={8} />
      ) : (
        <div className="with-details">
          <div className="calls-main">
            <CallsTable
              rows={rows}
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

function ActiveConditions({
  cond,
  onClear,
  sessionLink,
}: {
  cond: Record<string, string | undefined>;
  onClear: (k: string) => void;
  sessionLink?: string;
}) {
  const shown = (
    ['session', 'retried', 'chain', 'in_chain', 'size_bucket', 'from_tool'] as const
  ).filter((k) => cond[k]);
  if (!shown.length) return null;
  return (
    <div className="scope">
      {shown.map((k) => (
        <span key={k} className="chip">
          <span className="chip-label">{k.replace('_', ' ')}</span>
          <code className="chip-value">{cond[k]}</code>
          <button className="chip-x" onClick={() => onClear(k)} aria-label={`Clear ${k}`}>
            ×
          </button>
        </span>
      ))}
      {sessionLink && <Link href={sessionLink}>open the session timeline</Link>}
    </div>
  );
}
