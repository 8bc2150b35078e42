/**
 * Sizes: what responses and tool schemas cost the model's context window. Units are UTF-16 code
 * units as SDKs measure them; tokens ≈ units ÷ 4; cost at the configured price per million.
 */
import { useMemo } from 'react';
import type { SizeBucketCount, SizesReport } from '../../api/types';
import { metricsPaths } from '../../api/metrics';
import { useFilters } from '../../app/filters';
import { hrefOf, Link, navigate, useLocation, withParams } from '../../app/router';
import { useAppData } from '../../app/status';
import { SizeHistogram } from '../../components/charts/SizeHistogram';
import { ToolLink } from '../../components/ToolLink';
import { Panel } from '../../components/Panel';
import { parseSort, sortParam, sortRows, type SortState } from '../../components/SortableTable';
import { DataTable } from '../../components/table/DataTable';
import type { Column } from '../../components/table/columns';
import { StatCard } from '../../components/StatCard';
import { ErrorState, Loading, NoDataYet, StaleBanner } from '../../components/States';
import { useApi } from '../../hooks/useApi';
import { fmtInt, fmtTok, fmtTokens, fmtUnits, fmtUsd, plural, TOKENS_RULE } from '../../lib/format';
import { Abbr, Unit } from '../../components/Term';
import { HEAVY_PAYLOAD_UNITS } from '../../lib/thresholds';
import '../../components/charts/charts.css';
import './sizes.css';

/** One row of the per-tool table: responses and schema side by side. */
interface ToolSize {
  name: string;
  calls: number;
  units: number;
  avg_units: number | null;
  cost_usd: number;
  heavy: boolean;
  schema_bytes: number | null;
  schema_cost_per_session_usd: number | null;
}

function mergeTools(r: SizesReport): ToolSize[] {
  const out = new Map<string, ToolSize>();
  for (const t of r.response.tools)
    out.set(t.tool, {
      name: t.tool,
      calls: t.calls,
      units: t.units,
      avg_units: t.avg_units,
      cost_usd: t.cost_usd,
      heavy: t.heavy,
      schema_bytes: null,
      schema_cost_per_session_usd: null,
    });
  for (const t of r.schema.tools) {
    const row = out.get(t.name) ?? {
      name: t.name,
      calls: 0,
      units: 0,
      avg_units: null,
      cost_usd: 0,
      heavy: false,
      schema_bytes: null,
      schema_cost_per_session_usd: null,
    };
    row.schema_bytes = t.schema_bytes;
    row.schema_cost_per_session_usd = t.cost_per_session_usd;
    out.set(t.name, row);
  }
  return [...out.values()];
}

/** The per-tool table's columns: responses and schema side by side, tokens throughout. */
const SIZE_COLUMNS: Column<ToolSize>[] = [
  {
    key: 'name',
    name: 'Tool',
    header: 'Tool',
    identifying: true,
    sortValue: (t) => t.name,
    cell: (t) => <ToolLink name={t.name} />,
  },
  {
    key: 'calls',
    name: 'Calls',
    header: 'Calls',
    num: true,
    width: '72px',
    hideBelow: 700,
    sortValue: (t) => t.calls,
    cell: (t) => fmtInt(t.calls),
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
    sortValue: (t) => t.avg_units,
    cellClass: (t) => (t.heavy ? 'heavy' : ''),
    cellTitle: (t) => `${fmtUnits(t.avg_units)} UTF-16 units`,
    cell: (t) => fmtTok(t.avg_units),
  },
  {
    key: 'total',
    name: 'Total responses (tok)',
    header: (
      <>
        Total responses
        <Unit unit="tok" />
      </>
    ),
    num: true,
    width: '152px',
    hideBelow: 900,
    sortValue: (t) => t.units,
    cellTitle: (t) => `${fmtUnits(t.units)} UTF-16 units`,
    cell: (t) => fmtTok(t.units),
  },
  {
    key: 'cost',
    name: 'Response cost ($)',
    header: (
      <>
        Response cost
        <Unit unit="$" />
      </>
    ),
    num: true,
    width: '128px',
    hideBelow: 1000,
    sortValue: (t) => t.cost_usd,
    cell: (t) => fmtUsd(t.cost_usd),
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
    width: '92px',
    hideBelow: 520,
    sortValue: (t) => t.schema_bytes,
    cellTitle: (t) =>
      t.schema_bytes !== null ? `${fmtInt(t.schema_bytes)} UTF-16 units` : 'not registered',
    cell: (t) => fmtTok(t.schema_bytes),
  },
  {
    key: 'schema_cost',
    name: 'Schema per session ($)',
    header: (
      <>
        Schema per session
        <Unit unit="$" />
      </>
    ),
    num: true,
    width: '156px',
    hideBelow: 1100,
    sortValue: (t) => t.schema_cost_per_session_usd,
    cell: (t) => fmtUsd(t.schema_cost_per_session_usd),
  },
];

/** The one non-empty bucket of a histogram, if it has only one (a lone bar says little). */
function loneBucket(buckets: SizeBucketCount[]): SizeBucketCount | null {
  const filled = buckets.filter((b) => b.count > 0);
  return filled.length === 1 ? filled[0]! : null;
}

export function SizesPage() {
  const loc = useLocation();
  const { filters, link } = useFilters();
  const { hasData } = useAppData();
  const res = useApi(metricsPaths.sizes(filters));
  const sort = parseSort(loc.params.get('sort'), { key: 'total', dir: 'desc' });
  const onSort = (s: SortState): void =>
    navigate(hrefOf('/sizes', withParams(loc.params, { sort: sortParam(s) })), { replace: true });
  const rows = useMemo(() => {
    const col = SIZE_COLUMNS.find((c) => c.key === sort.key) ?? SIZE_COLUMNS[3]!;
    return sortRows(res.data ? mergeTools(res.data) : [], sort, (t) => col.sortValue?.(t));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [res.data, sort.key, sort.dir]);

  if (hasData === false) return <NoDataYet />;
  if (res.error && !res.data) return <ErrorState message={res.error} retry={res.retry} />;
  if (!res.data) return <Loading rows={8} />;
  const s = res.data;
  const price = s.cost.usd_per_million_tokens;
  const { response, schema, cost } = s;
  const lone = loneBucket(schema.histogram);

  return (
    <div className="sizes-page">
      <div className="page-head">
        <h1>Sizes</h1>
        <span className="sub">
          Figures in tokens (<Abbr term="tok">≈ UTF-16 units ÷ 4</Abbr>); histograms bucket the
          UTF-16 units SDKs measure ·{' '}
          <Link href={link('/settings')} data-testid="sizes-price" title="Change the price">
            ${price} per million input tokens
          </Link>
        </span>
      </div>
      {res.error && <StaleBanner message={res.error} />}
      <div className="grid cols-4">
        <StatCard
          testId="size-avg"
          label="Avg response"
          value={fmtTokens(response.avg_units)}
          valueTitle={TOKENS_RULE}
          sub={`${fmtUnits(response.avg_units)} UTF-16 units per call · ${fmtInt(response.calls)} calls`}
          tone={(response.avg_units ?? 0) > HEAVY_PAYLOAD_UNITS ? 'warn' : undefined}
          href={link('/calls')}
        />
        <StatCard
          testId="size-responses"
          label="Cost of responses"
          value={fmtUsd(response.cost_usd)}
          sub={`${fmtTokens(response.units)} in ${fmtInt(response.calls)} responses`}
        />
        <StatCard
          testId="size-schema"
          label="Schemas per session"
          value={fmtTokens(schema.bytes)}
          valueTitle={TOKENS_RULE}
          sub={`${fmtInt(schema.bytes)} UTF-16 units · ${fmtUsd(schema.cost_per_session_usd)} · ${plural(schema.registered_tools, 'tool')}`}
          href={link('/tools', { sort: '-schema' })}
        />
        <StatCard
          testId="size-cost"
          label="Cost per session"
          value={fmtUsd(cost.cost_per_session_usd)}
          sub={`${fmtUsd(cost.cost_usd)} over ${fmtInt(cost.sessions)} sessions`}
          href={link('/sessions', { sort: '-cost' })}
        />
      </div>
      <div className="grid cols-2 sizes-charts">
        <Panel title="Response sizes">
          <SizeHistogram
            buckets={response.histogram}
            testId="response-sizes"
            xTitle="Response size per call (UTF-16 units)"
            yTitle="Calls"
            onBucket={(b) => navigate(link('/calls', { size_bucket: b }))}
          />
        </Panel>
        <Panel title="Schema sizes">
          {lone ? (
            <div className="lone-bucket" data-testid="schema-sizes-one">
              {/* One bar on a chart says less than a sentence. */}
              Every registered tool's schema ({plural(lone.count, 'tool')}) is {lone.label} UTF-16
              units (≈ {fmtTokens(lone.units / lone.count)} on average).
            </div>
          ) : (
            <SizeHistogram
              buckets={schema.histogram}
              unit="tools"
              testId="schema-sizes"
              xTitle="Schema size per registered tool (UTF-16 units)"
              yTitle="Tools"
            />
          )}
        </Panel>
      </div>
      <Panel title="Per tool" flush className="sizes-table">
        <DataTable
          label="Sizes per tool"
          testId="size-tools"
          columns={SIZE_COLUMNS}
          rows={rows}
          rowKey={(t) => t.name}
          sort={sort}
          onSort={onSort}
          rowProps={(t) => ({ 'data-tool': t.name })}
          copyValue={(t) => t}
        />
      </Panel>
    </div>
  );
}
