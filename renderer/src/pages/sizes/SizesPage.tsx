/**
 * Sizes: what responses and tool schemas cost the model's context window. Units are UTF-16 code
 * units as SDKs measure them; tokens ≈ units ÷ 4; cost at the configured price per million.
 */
import { useMemo } from 'react';
import type { SizesReport } from '../../api/types';
import { metricsPaths } from '../../api/metrics';
import { useFilters } from '../../app/filters';
import { hrefOf, Link, navigate, useLocation, withParams } from '../../app/router';
import { useAppData } from '../../app/status';
import { SizeHistogram } from '../../components/charts/SizeHistogram';
import { Name } from '../../components/Name';
import { Panel } from '../../components/Panel';
import {
  parseSort,
  SortHeader,
  sortParam,
  sortRows,
  type SortState,
} from '../../components/SortableTable';
import { StatCard } from '../../components/StatCard';
import { ErrorState, Loading, NoDataYet, StaleBanner } from '../../components/States';
import { useApi } from '../../api/api';
import { fmtInt, fmtTokens, fmtUnits, fmtUsd } from '../../lib/format';
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

function value(t: ToolSize, key: string): unknown {
  switch (key) {
    case 'name':
      return t.name;
    case 'calls':
      return t.calls;
    case 'avg':
      return t.avg_units;
    case 'schema':
      return t.schema_bytes;
    case 'cost':
      return t.cost_usd;
    default:
      return t.units;
  }
}

export function SizesPage() {
  const loc = useLocation();
  const { filters, link } = useFilters();
  const { hasData } = useAppData();
  const res = useApi(metricsPaths.sizes(filters));
  const sort = parseSort(loc.params.get('sort'), { key: 'total', dir: 'desc' });
  const onSort = (s: SortState): void =>
    navigate(hrefOf('/sizes', withParams(loc.params, { sort: sortParam(s) })), { replace: true });
  const rows = useMemo(
    () => sortRows(res.data ? mergeTools(res.data) : [], sort, value),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [res.data, sort.key, sort.dir],
  );

  if (hasData === false) return <NoDataYet />;
  if (res.error && !res.data) return <ErrorState message={res.error} />;
  if (!res.data) return <Loading rows={8} />;
  const s = res.data;
  const price = s.cost.usd_per_million_tokens;
  const { response, schema, cost } = s;

  return (
    <div className="sizes-page">
      <div className="page-head">
        <h1>Sizes</h1>
        <span className="sub">
          Sizes in UTF-16 units as SDKs measure them · tokens ≈ units ÷ 4 ·{' '}
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
          value={fmtUnits(response.avg_units)}
          sub={`${fmtTokens(response.avg_units)} per call · ${fmtInt(response.calls)} calls`}
          tone={(response.avg_units ?? 0) > HEAVY_PAYLOAD_UNITS ? 'warn' : undefined}
          href={link('/calls')}
        />
        <StatCard
          testId="size-responses"
          label="Responses"
          value={fmtUsd(response.cost_usd)}
          sub={`${fmtUnits(response.units)} units · ${fmtTokens(response.units)}`}
        />
        <StatCard
          testId="size-schema"
          label="Schemas per session"
          value={fmtInt(schema.bytes)}
          sub={`${fmtTokens(schema.bytes)} · ${fmtUsd(schema.cost_per_session_usd)} · ${schema.registered_tools} tools`}
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
        <Panel title="Response size distribution (UTF-16 units per call)">
          <SizeHistogram
            buckets={response.histogram}
            testId="response-sizes"
            onBucket={(b) => navigate(link('/calls', { size_bucket: b }))}
          />
        </Panel>
        <Panel title="Schema size distribution (units per registered tool)">
          <SizeHistogram
            buckets={schema.histogram}
            fill="var(--crashed)"
            unit="tools"
            testId="schema-sizes"
          />
        </Panel>
      </div>
      <Panel title="Per tool" flush className="sizes-table">
        <div className="table-wrap">
          <table className="data" data-testid="size-tools">
            <colgroup>
              <col />
              <col className="w-n" />
              <col className="w-n" />
              <col className="w-n" />
              <col className="w-n" />
              <col className="w-n" />
              <col className="w-n" />
            </colgroup>
            <thead>
              <tr>
                <SortHeader k="name" sort={sort} onSort={onSort} defaultDir="asc">
                  Tool
                </SortHeader>
                <SortHeader k="calls" sort={sort} onSort={onSort} num>
                  Calls
                </SortHeader>
                <SortHeader k="avg" sort={sort} onSort={onSort} num>
                  Avg resp.
                </SortHeader>
                <SortHeader k="total" sort={sort} onSort={onSort} num>
                  Total resp.
                </SortHeader>
                <SortHeader k="cost" sort={sort} onSort={onSort} num>
                  Resp. cost
                </SortHeader>
                <SortHeader k="schema" sort={sort} onSort={onSort} num>
                  Schema
                </SortHeader>
                <th className="num">Schema / session</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => (
                <tr key={t.name} data-tool={t.name}>
                  <td>
                    <Link href={link('/tool', { name: t.name })}>
                      <Name text={t.name} mono />
                    </Link>
                  </td>
                  <td className="num">{fmtInt(t.calls)}</td>
                  <td className={`num ${t.heavy ? 'heavy' : ''}`} title={fmtTokens(t.avg_units)}>
                    {fmtUnits(t.avg_units)}
                  </td>
                  <td className="num" title={fmtTokens(t.units)}>
                    {fmtUnits(t.units)}
                  </td>
                  <td className="num">{fmtUsd(t.cost_usd)}</td>
                  <td
                    className="num"
                    title={t.schema_bytes !== null ? fmtTokens(t.schema_bytes) : 'not registered'}
                  >
                    {t.schema_bytes === null ? '—' : fmtInt(t.schema_bytes)}
                  </td>
                  <td className="num">{fmtUsd(t.schema_cost_per_session_usd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Panel>
    </div>
  );
}
