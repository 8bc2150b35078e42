/** Size route: response and schema sizes, tokens and cost. */
import { groupStats, rate, totalStats } from '../metrics/aggregate.js';
import { THRESHOLDS } from '../shared/metric-constants.js';
import { costOf, registeredByName, sizeHistogramOf, valueHistogram } from '../metrics/report.js';
import { costUsd, tokensOf } from '../metrics/sizes.js';
import { metricsOf } from '../store/metrics/queries.js';
import { echo, price } from './metrics-params.js';
import type { RouteMap } from './types.js';

/** `/api/sizes`. */
export const metricsSizeRoutes = {
  'GET /api/sizes': ({ store, filter }) => {
    const m = metricsOf(store);
    const usd = price(m);
    const stats = m.stats(filter);
    const sizeRows = m.sizes(filter);
    const registered = m.registered(filter);
    const schema = m.sessionSchema(filter);
    const total = totalStats(stats);
    const byTool = groupStats(stats, (r) => r.tool);
    const reg = [...registeredByName(registered).entries()].filter(
      ([n]) => filter.tool === undefined || n === filter.tool,
    );
    const regBytes = reg.reduce((a, [, r]) => a + r.schema_bytes, 0);
    return {
      response: {
        calls: total.calls,
        units: total.response_units,
        avg_units: rate(total.response_units, total.calls),
        tokens: tokensOf(total.response_units),
        cost_usd: costUsd(total.response_units, usd),
        histogram: sizeHistogramOf(sizeRows),
        tools: [...byTool.entries()]
          .map(([tool, s]) => ({
            tool,
            calls: s.calls,
            units: s.response_units,
            avg_units: rate(s.response_units, s.calls),
            tokens: tokensOf(s.response_units),
            cost_usd: costUsd(s.response_units, usd),
            heavy: (rate(s.response_units, s.calls) ?? 0) > THRESHOLDS.avgResponse.medium,
            histogram: sizeHistogramOf(sizeRows.filter(([t]) => t === tool)),
          }))
          .sort((a, b) => b.units - a.units || (a.tool < b.tool ? -1 : 1)),
      },
      schema: {
        registered_tools: reg.length,
        bytes: regBytes,
        tokens: tokensOf(regBytes),
        cost_per_session_usd: costUsd(regBytes, usd),
        histogram: valueHistogram(reg.map(([, r]) => r.schema_bytes)),
        tools: reg
          .map(([name, r]) => ({
            name,
            schema_bytes: r.schema_bytes,
            tokens: tokensOf(r.schema_bytes),
            cost_per_session_usd: costUsd(r.schema_bytes, usd),
            share: rate(r.schema_bytes, regBytes),
          }))
          .sort((a, b) => b.schema_bytes - a.schema_bytes || (a.name < b.name ? -1 : 1)),
      },
      cost: costOf(total, schema, usd),
      filter: echo(filter),
    };
  },
} satisfies RouteMap;
