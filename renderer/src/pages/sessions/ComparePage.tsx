/**
 * Two sessions side by side: headline numbers, per-tool calls / outcomes / first-call success
 * with the difference, and both timelines on one scale and one set of lanes.
 */
import { Fragment, useMemo } from 'react';
import { OUTCOME_KEYS, type OutcomeKey } from '../../api/types';
import { metricsPaths } from '../../api/metrics';
import type { SessionDetail } from '../../api/types';
import { useFilters } from '../../app/filters';
import { Link, useLocation } from '../../app/router';
import { Name } from '../../components/Name';
import { OutcomeBar } from '../../components/OutcomeBar';
import { Panel } from '../../components/Panel';
import { ErrorState, Loading } from '../../components/States';
import { Timeline } from '../../components/timeline/Timeline';
import { Abbr } from '../../components/Term';
import { fmtInt, fmtMs, fmtPct, fmtUsd } from '../../lib/format';
import { useApi } from '../../hooks/useApi';
import { DataTable } from '../../components/table/DataTable';
import type { Column } from '../../components/table/columns';
import { sessionTitle } from './session-title';
import { useSession } from './useSession';
import './compare.css';

type CompareRow = NonNullable<ReturnType<typeof useApi<'compare'>>['data']>['tools'][number];

const fcsOf = (x: CompareRow['a']): number | null => x?.first_call_success.rate ?? null;
const deltaOf = (r: CompareRow): number | null => {
  const rx = fcsOf(r.a);
  const ry = fcsOf(r.b);
  return rx !== null && ry !== null ? ry - rx : null;
};

/**
 * A side's three columns (calls, FCS, outcomes), under its letter. On a narrow window the
 * outcome bars and then the call counts drop, so the table reflows instead of scrolling.
 */
function sideColumns(side: 'a' | 'b'): Column<CompareRow>[] {
  const L = side.toUpperCase();
  return [
    {
      key: `${side}_calls`,
      name: `${L} calls`,
      header: `${L} calls`,
      num: true,
      width: '76px',
      // Under 640 px the two FCS columns and the delta are what a comparison needs.
      hideBelow: 640,
      sortValue: (r) => r[side]?.calls ?? 0,
      cell: (r) => fmtInt(r[side]?.calls ?? 0),
    },
    {
      key: `${side}_fcs`,
      name: `${L} first-call success`,
      header: (
        <>
          {L} <Abbr term="FCS" />
        </>
      ),
      num: true,
      width: '64px',
      sortValue: (r) => fcsOf(r[side]),
      cell: (r) => fmtPct(fcsOf(r[side])),
    },
    {
      key: `${side}_outcomes`,
      name: `${L} outcomes`,
      header: `${L} outcomes`,
      width: '120px',
      hideBelow: 900,
      cell: (r) => {
        const x = r[side];
        return x ? <OutcomeBar outcomes={x.outcomes} compact /> : null;
      },
    },
  ];
}

/**
 * A tool name that may break after its underscores: on a phone the compare table wraps a long
 * name ("search_ / tickets") instead of cutting it to "searc…" or breaking mid-word.
 */
function ToolName({ name }: { name: string }) {
  const parts = name.split('_');
  return (
    <bdi className="trunc mono" title={name} dir="auto">
      {name === ''
        ? '(empty)'
        : parts.map((p, i) => (
            <Fragment key={i}>
              {p}
              {i < parts.length - 1 && (
                <>
                  _<wbr />
                </>
              )}
            </Fragment>
          ))}
    </bdi>
  );
}

const COMPARE_COLUMNS: Column<CompareRow>[] = [
  {
    key: 'tool',
    name: 'Tool',
    header: 'Tool',
    identifying: true,
    cell: (r) => <ToolName name={r.tool} />,
  },
  ...sideColumns('a'),
  ...sideColumns('b'),
  {
    key: 'delta',
    name: 'Δ first-call success',
    header: (
      <>
        Δ <Abbr term="FCS" />
      </>
    ),
    num: true,
    width: '72px',
    cellClass: (r) => {
      const d = deltaOf(r);
      return d === null ? '' : d > 0 ? 'up' : d < 0 ? 'down' : '';
    },
    cell: (r) => {
      const d = deltaOf(r);
      return d === null ? '—' : `${d > 0 ? '+' : ''}${(d * 100).toFixed(1)} pt`;
    },
  },
];

export function ComparePage() {
  const loc = useLocation();
  const { filters, link } = useFilters();
  const idA = loc.params.get('a');
  const idB = loc.params.get('b');
  const a = useSession(filters, idA);
  const b = useSession(filters, idB);
  const cmp = useApi(idA && idB ? metricsPaths.compare(filters, idA, idB) : null);
  const lanes = useMemo(
    () => [
      ...new Set([...(a.data?.calls ?? []), ...(b.data?.calls ?? [])].map((c) => c.tool_name)),
    ],
    [a.data, b.data],
  );
  if (!loc.params.get('a') || !loc.params.get('b'))
    return <ErrorState message="Pick two sessions to compare: tick them on the Sessions page." />;
  const err = a.error ?? b.error;
  if (err && (!a.data || !b.data)) return <ErrorState message={err} />;
  if (!a.data || !b.data) return <Loading rows={8} />;
  const span = Math.max(sessionSpan(a.data), sessionSpan(b.data));

  return (
    <div className="compare-page">
      <div className="page-head">
        <Link href={link('/sessions')} className="crumb">
          Sessions
        </Link>
        <span className="faint">/</span>
        <h1>Compare</h1>
      </div>
      <div className="grid cols-2 compare-heads">
        <SideHead label="A" d={a.data} />
        <SideHead label="B" d={b.data} />
      </div>
      <Panel title="Per tool" flush>
        <DataTable
          label="Per tool, A beside B"
          testId="compare-tools"
          className="compare-table"
          columns={COMPARE_COLUMNS}
          rows={cmp.data?.tools ?? []}
          rowKey={(r) => r.tool}
          copyValue={(r) => r}
        />
      </Panel>
      <div className="stack compare-timelines">
        <Panel
          title={
            <span>
              A · <span className="mono">{a.data.session.id}</span>
            </span>
          }
        >
          <Timeline calls={a.data.calls} chains={a.data.chains} spanMs={span} lanes={lanes} />
        </Panel>
        <Panel
          title={
            <span>
              B · <span className="mono">{b.data.session.id}</span>
            </span>
          }
        >
          <Timeline calls={b.data.calls} chains={b.data.chains} spanMs={span} lanes={lanes} />
        </Panel>
      </div>
    </div>
  );
}

function sessionSpan(d: SessionDetail): number {
  const first = d.calls[0]?.started_ms ?? 0;
  return Math.max(1, ...d.calls.map((c) => c.started_ms + c.duration_ms - first));
}

function SideHead({ label, d }: { label: string; d: SessionDetail }) {
  const { link } = useFilters();
  const s = d.session;
  const outcomes = Object.fromEntries(OUTCOME_KEYS.map((k) => [k, s.outcomes[k] ?? 0])) as Record<
    OutcomeKey,
    number
  >;
  return (
    <div className="side-head" data-testid={`compare-${label}`}>
      <div className="side-title">
        <span className="side-label">{label}</span>
        <Link href={link('/session', { id: s.id })} className="side-name">
          <Name text={sessionTitle(s)} />
        </Link>
        <span className="muted mono">
          <Name text={s.id} />
        </span>
      </div>
      <div className="side-nums">
        <span>
          <b>{fmtInt(s.calls)}</b> calls
        </span>
        <span>
          <b>{fmtPct(s.first_call_success.rate)}</b> FCS ({s.first_call_success.successes}/
          {s.first_call_success.calls})
        </span>
        <span>
          <b>{fmtInt(s.retries)}</b> retried
        </span>
        <span>
          <b>{fmtMs(s.duration_ms)}</b>
        </span>
        <span>
          <b>{fmtUsd(s.cost_usd ?? null)}</b>
        </span>
      </div>
      <OutcomeBar outcomes={outcomes} compact />
    </div>
  );
}
