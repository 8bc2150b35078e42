/**
 * Tools: the health table of every registered tool, called or not, plus tools that were called
 * without being registered. Searchable (`/`), sortable, `j`/`k`/Enter.
 */
import { useCallback, useMemo } from 'react';
import type { ToolSummary } from '../../api/types';
import { metricsPaths } from '../../api/metrics';
import { useFilters } from '../../app/filters';
import { hrefOf, Link, navigate, useLocation, withParams } from '../../app/router';
import { useAppData } from '../../app/status';
import { ToolLink } from '../../components/ToolLink';
import { OutcomeBar } from '../../components/OutcomeBar';
import {
  parseSort,
  SortHeader,
  sortParam,
  sortRows,
  type SortState,
} from '../../components/SortableTable';
import { ErrorState, Loading, NoDataYet, NoMatch, StaleBanner } from '../../components/States';
import { useListNav } from '../../hooks/useHotkeys';
import { useApi } from '../../hooks/useApi';
import { fmtInt, fmtMs, fmtPct, fmtTok, fmtUnits } from '../../lib/format';
import { Abbr, Unit } from '../../components/Term';
import { ToolBadges } from './tool-badges';
import './tools.css';

const fcsRate = (t: ToolSummary): number | null =>
  t.calls ? t.first_call_successes / t.calls : null;

function value(t: ToolSummary, key: string): unknown {
  switch (key) {
    case 'name':
      return t.name;
    case 'fcs':
      return fcsRate(t);
    case 'avg':
      return t.avg_response_bytes;
    case 'p95':
      return t.p95_ms;
    case 'schema':
      return t.schema_bytes;
    case 'retries':
      return t.retries;
    default:
      return t.calls;
  }
}

export function ToolsPage() {
  const loc = useLocation();
  const { filters, link } = useFilters();
  const { hasData } = useAppData();
  // A tool filter would hide every other tool from a table of tools: the table ignores it.
  const summary = useApi(metricsPaths.summary({ ...filters, tool: undefined }));
  const q = loc.params.get('q') ?? '';
  const sort = parseSort(loc.params.get('sort'), { key: 'calls', dir: 'desc' });
  const setParams = (changes: Record<string, string | null>): void =>
    navigate(hrefOf('/tools', withParams(loc.params, changes)), { replace: true });

  const rows = useMemo(() => {
    const needle = q.trim().toLowerCase();
    const list = (summary.data?.tools ?? []).filter(
      (t) => !needle || t.name.toLowerCase().includes(needle),
    );
    return sortRows(list, sort, value);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [summary.data, q, sort.key, sort.dir]);
  const open = useCallback(
    (i: number) => rows[i] && navigate(link('/tool', { name: rows[i].name })),
    [rows, link],
  );
  const [selected, setSelected] = useListNav(rows.length, open);

  if (hasData === false) return <NoDataYet />;
  if (summary.error && !summary.data)
    return <ErrorState message={summary.error} retry={summary.retry} />;
  if (!summary.data) return <Loading rows={8} />;
  const all = summary.data.tools;
  const dead = all.filter((t) => t.dead).length;
  const onSort = (s: SortState): void => setParams({ sort: sortParam(s) });

  return (
    <div className="tools-page">
      <div className="page-head">
        <h1>Tools</h1>
        <span className="sub" data-testid="tools-sub">
          {fmtInt(all.filter((t) => t.registered).length)} registered ·{' '}
          {fmtInt(all.filter((t) => t.calls > 0).length)} called · {fmtInt(dead)} never used
        </span>
        <div className="spacer" />
        <input
          className="input search"
          data-search
          type="search"
          placeholder="Filter tools  /"
          value={q}
          onChange={(e) => setParams({ q: e.target.value || null })}
          aria-label="Filter tools"
        />
      </div>
      {summary.error && <StaleBanner message={summary.error} />}
      <div className="table-wrap tools-table">
        <table className="data" data-testid="tools">
          <colgroup>
            <col className="w-name" />
            <col className="w-badges" />
            <col className="w-n" />
            <col className="w-n" />
            <col className="w-n" />
            <col className="w-n" />
            <col className="w-n" />
            <col className="w-n" />
            <col className="w-mix" />
          </colgroup>
          <thead>
            <tr>
              <SortHeader k="name" sort={sort} onSort={onSort} defaultDir="asc">
                Tool
              </SortHeader>
              <th>Status</th>
              <SortHeader k="calls" sort={sort} onSort={onSort} num>
                Calls
              </SortHeader>
              <SortHeader k="fcs" sort={sort} onSort={onSort} num defaultDir="asc">
                <Abbr term="FCS" />
              </SortHeader>
              <SortHeader k="retries" sort={sort} onSort={onSort} num>
                Retried
              </SortHeader>
              <SortHeader k="avg" sort={sort} onSort={onSort} num>
                Avg response
                <Unit unit="tok" />
              </SortHeader>
              <SortHeader k="p95" sort={sort} onSort={onSort} num>
                <Abbr term="p95" /> latency
              </SortHeader>
              <SortHeader k="schema" sort={sort} onSort={onSort} num>
                Schema
                <Unit unit="tok" />
              </SortHeader>
              <th>Outcomes</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((t, i) => {
              const fcs = fcsRate(t);
              return (
                <tr
                  key={t.name}
                  data-row-index={i}
                  data-tool={t.name}
                  className={`clickable ${i === selected ? 'selected' : ''} ${t.dead ? 'dead' : ''}`}
                  onClick={() => {
                    setSelected(i);
                    open(i);
                  }}
                >
                  <td>
                    <ToolLink name={t.name} />
                  </td>
                  <td>
                    <ToolBadges tool={t} />
                  </td>
                  <td className="num">
                    {t.calls ? (
                      <Link
                        href={link('/calls', { tool: t.name })}
                        onClick={(e) => e.stopPropagation()}
                      >
                        {fmtInt(t.calls)}
                      </Link>
                    ) : (
                      <span className="faint">0</span>
                    )}
                  </td>
                  <td
                    className="num"
                    title={t.calls ? `${t.first_call_successes} of ${t.calls} calls` : 'no calls'}
                  >
                    {fmtPct(fcs)}
                  </td>
                  <td className="num">{t.calls ? fmtInt(t.retries) : '—'}</td>
                  <td className="num" title={`${fmtUnits(t.avg_response_bytes)} UTF-16 units`}>
                    {fmtTok(t.avg_response_bytes)}
                  </td>
                  <td className="num">{fmtMs(t.p95_ms)}</td>
                  <td
                    className="num"
                    title={
                      t.schema_bytes !== null
                        ? `${fmtInt(t.schema_bytes)} UTF-16 units`
                        : 'not registered'
                    }
                  >
                    {fmtTok(t.schema_bytes)}
                  </td>
                  <td>{t.calls ? <OutcomeBar outcomes={t.outcomes} compact /> : null}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {rows.length === 0 &&
          (q ? (
            <div className="empty-row">No tool matches “{q}”.</div>
          ) : (
            <NoMatch what="tools" compact>
              Tools appear with the first startup or call.
            </NoMatch>
          ))}
      </div>
    </div>
  );
}
