/**
 * Tools: the health table of every registered tool, called or not, plus tools that were called
 * without being registered — what fails most first — under the full list of insights (the
 * Overview's "+N more" lands here). Searchable (`/`), sortable, `j`/`k`/Enter.
 */
import { useCallback, useMemo } from 'react';
import type { ToolSummary } from '../../api/types';
import { metricsPaths } from '../../api/metrics';
import { useFilters } from '../../app/filters';
import { hrefOf, Link, navigate, useLocation, withParams } from '../../app/router';
import { useAppData } from '../../app/status';
import { InsightList } from '../../components/InsightList';
import { OutcomeBar, OutcomeLegend } from '../../components/OutcomeBar';
import { Panel } from '../../components/Panel';
import { parseSort, sortParam, sortRows, type SortState } from '../../components/SortableTable';
import { ErrorState, Loading, NoDataYet, NoMatch, StaleBanner } from '../../components/States';
import { DataTable } from '../../components/table/DataTable';
import type { Column } from '../../components/table/columns';
import { Abbr, Unit } from '../../components/Term';
import { ToolLink } from '../../components/ToolLink';
import { useApi } from '../../hooks/useApi';
import { useListNav } from '../../hooks/useHotkeys';
import { fmtInt, fmtMs, fmtPct, fmtTok, fmtUnits } from '../../lib/format';
import { ToolBadges } from './tool-badges';
import './tools.css';

const fcsRate = (t: ToolSummary): number | null =>
  t.calls ? t.first_call_successes / t.calls : null;

/** Calls that failed outright: bad arguments, tool errors, crashes. */
const failedOf = (t: ToolSummary): number =>
  t.outcomes.bad_args + t.outcomes.tool_error + t.outcomes.crashed;

/** What fails first: the most failed calls, then the lowest first-call success. */
const DEFAULT_SORT: SortState = { key: 'failed', dir: 'desc' };

function toolColumns(link: ReturnType<typeof useFilters>['link']): Column<ToolSummary>[] {
  return [
    {
      key: 'name',
      name: 'Tool',
      header: 'Tool',
      identifying: true,
      sortValue: (t) => t.name,
      cell: (t) => <ToolLink name={t.name} />,
    },
    {
      key: 'status',
      name: 'Status',
      header: 'Status',
      width: '180px',
      hideBelow: 1280,
      cell: (t) => <ToolBadges tool={t} />,
    },
    {
      key: 'failed',
      name: 'Failed',
      header: 'Failed',
      num: true,
      width: '76px',
      sortValue: (t) => (t.calls ? failedOf(t) : null),
      cellClass: (t) => (failedOf(t) > 0 ? 'bad' : ''),
      cellTitle: (t) =>
        `${t.outcomes.bad_args} bad args · ${t.outcomes.tool_error} tool errors · ${t.outcomes.crashed} crashed`,
      cell: (t) =>
        t.calls ? (
          failedOf(t) > 0 ? (
            <Link
              href={link('/calls', { tool: t.name, q: null })}
              onClick={(e) => e.stopPropagation()}
            >
              {fmtInt(failedOf(t))}
            </Link>
          ) : (
            '0'
          )
        ) : (
          '—'
        ),
    },
    {
      key: 'calls',
      name: 'Calls',
      header: 'Calls',
      num: true,
      width: '72px',
      sortValue: (t) => t.calls,
      cell: (t) =>
        t.calls ? (
          <Link href={link('/calls', { tool: t.name })} onClick={(e) => e.stopPropagation()}>
            {fmtInt(t.calls)}
          </Link>
        ) : (
          <span className="faint">0</span>
        ),
    },
    {
      key: 'fcs',
      name: 'First-call success',
      header: <Abbr term="FCS" />,
      num: true,
      width: '72px',
      defaultDir: 'asc',
      sortValue: fcsRate,
      cellTitle: (t) => (t.calls ? `${t.first_call_successes} of ${t.calls} calls` : 'no calls'),
      cell: (t) => fmtPct(fcsRate(t)),
    },
    {
      key: 'retries',
      name: 'Retried',
      header: 'Retried',
      num: true,
      width: '76px',
      hideBelow: 900,
      sortValue: (t) => t.retries,
      cell: (t) => (t.calls ? fmtInt(t.retries) : '—'),
    },
    {
      key: 'avg',
      name: 'Avg response (tok)',
      header: (
        <>
          Avg response
          <Unit unit="tok" />
        </>
      ),
      num: true,
      width: '136px',
      hideBelow: 1100,
      sortValue: (t) => t.avg_response_bytes,
      cellTitle: (t) => `${fmtUnits(t.avg_response_bytes)} UTF-16 units`,
      cell: (t) => fmtTok(t.avg_response_bytes),
    },
    {
      key: 'p95',
      name: 'p95 latency',
      header: <Abbr term="p95" />,
      num: true,
      width: '72px',
      hideBelow: 700,
      sortValue: (t) => t.p95_ms,
      cell: (t) => fmtMs(t.p95_ms),
    },
    {
      key: 'schema',
      name: 'Schema (tok)',
      header: (
        <>
          Schema
          <Unit unit="tok" />
        </>
      ),
      num: true,
      width: '96px',
      hideBelow: 1100,
      sortValue: (t) => t.schema_bytes,
      cellTitle: (t) =>
        t.schema_bytes !== null ? `${fmtInt(t.schema_bytes)} UTF-16 units` : 'not registered',
      cell: (t) => fmtTok(t.schema_bytes),
    },
    {
      key: 'outcomes',
      name: 'Outcomes',
      header: 'Outcomes',
      width: '120px',
      hideBelow: 600,
      cell: (t) => (t.calls ? <OutcomeBar outcomes={t.outcomes} compact /> : null),
    },
  ];
}

export function ToolsPage() {
  const loc = useLocation();
  const { filters, link } = useFilters();
  const { hasData } = useAppData();
  // A tool filter would hide every other tool from a table of tools: the table ignores it.
  const summary = useApi(metricsPaths.tools({ ...filters, tool: undefined }));
  const q = loc.params.get('q') ?? '';
  const sort = parseSort(loc.params.get('sort'), DEFAULT_SORT);
  const columns = useMemo(() => toolColumns(link), [link]);
  const setParams = (changes: Record<string, string | null>): void =>
    navigate(hrefOf('/tools', withParams(loc.params, changes)), { replace: true });

  const rows = useMemo(() => {
    const needle = q.trim().toLowerCase();
    const list = (summary.data?.tools ?? []).filter(
      (t) => !needle || t.name.toLowerCase().includes(needle),
    );
    const col = columns.find((c) => c.key === sort.key) ?? columns[2]!;
    // Ties (no failures) fall back to the lowest first-call success, then the most calls.
    const base = sortRows(list, { key: 'calls', dir: 'desc' }, (t) => t.calls);
    const byFcs = sortRows(base, { key: 'fcs', dir: 'asc' }, (t) => fcsRate(t));
    return sortRows(byFcs, sort, (t) => col.sortValue?.(t));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [summary.data, q, sort.key, sort.dir, columns]);
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
  const onSort = (s: SortState): void =>
    setParams({
      sort: s.key === DEFAULT_SORT.key && s.dir === DEFAULT_SORT.dir ? null : sortParam(s),
    });

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
          placeholder="Filter tools"
          value={q}
          onChange={(e) => setParams({ q: e.target.value || null })}
          aria-label="Filter tools"
        />
      </div>
      {summary.error && <StaleBanner message={summary.error} />}
      <section id="insights" className="tools-insights" aria-label="Insights">
        <Panel title={`Insights · ${fmtInt(summary.data.insights.length)}`} flush>
          <InsightList insights={summary.data.insights} full />
        </Panel>
      </section>
      <div className="tools-legend">
        <OutcomeLegend />
      </div>
      <DataTable
        label="Tools"
        className="tools-table"
        testId="tools"
        columns={columns}
        rows={rows}
        rowKey={(t) => t.name}
        sort={sort}
        onSort={onSort}
        selected={selected}
        onSelect={(i) => {
          setSelected(i);
          open(i);
        }}
        rowProps={(t) => ({ 'data-tool': t.name, className: t.dead ? 'dead' : '' })}
        copyValue={(t) => t}
        empty={
          q ? (
            <div className="empty-row">No tool matches “{q}”.</div>
          ) : (
            <NoMatch what="tools" compact>
              Tools appear with the first startup or call.
            </NoMatch>
          )
        }
      />
    </div>
  );
}
