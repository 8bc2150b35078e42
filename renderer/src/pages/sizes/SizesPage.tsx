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
import { ToolLink } from '../../components/ToolLink';
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
  if (res.error && !res.data) return <ErrorState message={res.error} retry={res.retry} />;
  if (!res.data) return <Loading rows={8} />;
  const s = res.data;
  const price = s.cost.usd_per_million_tokens;
  const { response, schema, cost } = s;

  return (
    <div className="sizes-page">
      <div className="page-head">
        <h1>Sizes</h1>
        <span className="sub">
          Sizes in tokens (<Abbr term="tok">≈ UTF-16 units ÷ 4</Abbr>) ·{' '}
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
          <SizeHistogram
            buckets={schema.histogram}
            fill="var(--crashed)"
            unit="tools"
            testId="schema-sizes"
            xTitle="Schema size per registered tool (UTF-16 units)"
            yTitle="Tools"
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
                  Avg response
                  <Unit unit="tok" />
                </SortHeader>
                <SortHeader k="total" sort={sort} onSort={onSort} num>
                  Total responses
                  <Unit unit="tok" />
                </SortHeader>
                <SortHeader k="cost" sort={sort} onSort={onSort} num>
                  Response cost
                  <Unit unit="$" />
                </SortHeader>
                <SortHeader k="schema" sort={sort} onSort={onSort} num>
                  Schema
                  <Unit unit="tok" />
                </SortHeader>
                <th className="num">
                  Schema per session
                  <Unit unit="$" />
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => (
                <tr key={t.name} data-tool={t.name}>
                  <td>
                    <ToolLink name={t.name} />
                  </td>
                  <td className="num">{fmtInt(t.calls)}</td>
                  <td
                    className={`num ${t.heavy ? 'heavy' : ''}`}
                    title={`${fmtUnits(t.avg_units)} UTF-16 units`}
                  >
                    {fmtTok(t.avg_units)}
                  </td>
                  <td className="num" title={`${fmtUnits(t.units)} UTF-16 units`}>
                    {fmtTok(t.units)}
                  </td>
                  <td className="num">{fmtUsd(t.cost_usd)}</td>
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
