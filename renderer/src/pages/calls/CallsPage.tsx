/**
 * Calls: the raw rows behind every number. Links from other pages narrow it with the global
 * filters plus `outcome`, `fcs` (first-call success 1/0), `slow` and `sort`; those extra
 * narrowings run here over at most the newest 10,000 calls of the view.
 */
import { useCallback, useMemo } from 'react';
import { corePaths } from '../../api/core';
import {
  OUTCOME_KEYS,
  OUTCOME_LABEL,
  outcomeKey,
  type Call,
  type OutcomeKey,
} from '../../api/core-types';
import { useFilters } from '../../app/filters';
import { hrefOf, Link, navigate, useLocation, withParams } from '../../app/router';
import { useAppData } from '../../app/status';
import { Name } from '../../components/Name';
import { ErrorState, Loading, NoDataYet, StaleBanner } from '../../components/States';
import { useListNav } from '../../hooks/useHotkeys';
import { useResource } from '../../hooks/useResource';
import { fmtDateTime, fmtInt, fmtMs, fmtTimeMs, fmtUnits } from '../../lib/format';
import './calls.css';

const LIMIT = 10_000;
/** Rows rendered at once; the rest are counted, not drawn. */
const SHOWN = 500;

type CallWithFacts = Call & { fcs?: number | boolean; first_call_success?: boolean };

export function CallsPage() {
  const loc = useLocation();
  const { filters, link } = useFilters();
  const { hasData } = useAppData();
  const session = loc.params.get('session') ?? undefined;
  const outcome = loc.params.get('outcome') as OutcomeKey | null;
  const fcs = loc.params.get('fcs');
  const slow = loc.params.get('slow') === '1';
  const sort = loc.params.get('sort') === 'duration' ? 'duration' : 'time';
  const res = useResource<{ calls: CallWithFacts[] }>(
    corePaths.calls(filters, { session, limit: LIMIT, order: 'desc' }),
  );

  const rows = useMemo(() => {
    let list = res.data?.calls ?? [];
    if (outcome) list = list.filter((c) => outcomeKey(c) === outcome);
    if (slow) list = list.filter((c) => c.duration_ms >= 2000);
    if (fcs === '1' || fcs === '0') {
      const want = fcs === '1';
      list = list.filter((c) => factFcs(c) === want);
    }
    if (sort === 'duration') list = [...list].sort((a, b) => b.duration_ms - a.duration_ms);
    return list;
  }, [res.data, outcome, slow, fcs, sort]);
  const shown = rows.slice(0, SHOWN);
  const open = useCallback(
    (i: number) => {
      const c = shown[i];
      if (c) navigate(link('/session', { id: c.session_id, call: c.id }));
    },
    [shown, link],
  );
  const [selected, setSelected] = useListNav(shown.length, open);

  const set = (changes: Record<string, string | null>): void =>
    navigate(hrefOf('/calls', withParams(loc.params, changes)), { replace: true });

  if (hasData === false) return <NoDataYet />;
  if (res.error && !res.data) return <ErrorState message={res.error} />;
  const fcsKnown = (res.data?.calls ?? []).some((c) => factFcs(c) !== undefined);

  return (
    <div className="calls-page">
      <div className="page-head">
        <h1>Calls</h1>
        <span className="sub" data-testid="calls-count">
          {fmtInt(rows.length)} {rows.length === 1 ? 'call' : 'calls'}
          {rows.length > SHOWN ? ` (newest ${SHOWN} shown)` : ''}
          {res.data && res.data.calls.length >= LIMIT ? ` among the newest ${fmtInt(LIMIT)}` : ''}
        </span>
        <div className="spacer" />
        <div className="seg" role="group" aria-label="Outcome">
          <button className={!outcome ? 'on' : ''} onClick={() => set({ outcome: null })}>
            All
          </button>
          {OUTCOME_KEYS.map((k) => (
            <button
              key={k}
              className={outcome === k ? 'on' : ''}
              onClick={() => set({ outcome: k })}
            >
              <span className={`dot o-${k}`} /> {OUTCOME_LABEL[k]}
            </button>
          ))}
        </div>
        {fcsKnown && (
          <select
            className="select"
            value={fcs ?? ''}
            onChange={(e) => set({ fcs: e.target.value || null })}
            aria-label="First-call success"
          >
            <option value="">Any first-call result</option>
            <option value="1">First-call successes</option>
            <option value="0">Not first-call successes</option>
          </select>
        )}
        <label className="check">
          <input
            type="checkbox"
            checked={slow}
            onChange={(e) => set({ slow: e.target.checked ? '1' : null })}
          />{' '}
          ≥ 2 s
        </label>
        <select
          className="select"
          value={sort}
          onChange={(e) => set({ sort: e.target.value === 'duration' ? 'duration' : null })}
          aria-label="Sort"
        >
          <option value="time">Newest first</option>
          <option value="duration">Slowest first</option>
        </select>
      </div>
      {session && (
        <div className="scope">
          Session <code>{session}</code>
          <Link href={link('/session', { id: session })}>open timeline</Link>
          <button className="btn small ghost" onClick={() => set({ session: null })}>
            clear
          </button>
        </div>
      )}
      {res.error && <StaleBanner message={res.error} />}
      {!res.data ? (
        <Loading rows={8} />
      ) : (
        <div className="table-wrap calls-table">
          <table className="data" data-testid="calls">
            <colgroup>
              <col className="w-when" />
              <col />
              <col className="w-outcome" />
              <col className="w-n" />
              <col className="w-n" />
              <col className="w-hash" />
              <col className="w-client" />
              <col className="w-session" />
            </colgroup>
            <thead>
              <tr>
                <th>Started</th>
                <th>Tool</th>
                <th>Outcome</th>
                <th className="num">Duration</th>
                <th className="num">Response</th>
                <th>args_hash</th>
                <th>Client</th>
                <th>Session</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((c, i) => {
                const o = outcomeKey(c);
                return (
                  <tr
                    key={c.id}
                    data-row-index={i}
                    className={`clickable ${i === selected ? 'selected' : ''}`}
                    onClick={() => {
                      setSelected(i);
                      open(i);
                    }}
                  >
                    <td className="mono" title={`${c.started_at} (${fmtDateTime(c.started_ms)})`}>
                      {fmtTimeMs(c.started_ms)}
                    </td>
                    <td>
                      <Name text={c.tool_name} />
                    </td>
                    <td>
                      <span className="outcome">
                        <span className={`dot o-${o}`} />
                        {OUTCOME_LABEL[o]}
                      </span>
                    </td>
                    <td className={`num ${c.duration_ms >= 2000 ? 'slow' : ''}`}>
                      {fmtMs(c.duration_ms)}
                    </td>
                    <td className="num">{fmtUnits(c.response_bytes)}</td>
                    <td className="mono faint">{c.args_hash}</td>
                    <td>
                      <Name text={c.client_name} />
                    </td>
                    <td className="mono">
                      <Name text={c.session_id} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {rows.length === 0 && <div className="empty-row">No calls match these filters.</div>}
        </div>
      )}
    </div>
  );
}

function factFcs(c: CallWithFacts): boolean | undefined {
  if (typeof c.first_call_success === 'boolean') return c.first_call_success;
  if (c.fcs !== undefined) return c.fcs === 1 || c.fcs === true;
  return undefined;
}
