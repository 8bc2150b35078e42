/** Retry chain routes. */
import { chainViews } from '../metrics/report.js';
import { metricsOf } from '../store/metrics/queries.js';
import { echo } from './metrics-params.js';
import { bool, intParam, limitOf, refuseBefore } from './params.js';
import type { RouteMap } from './types.js';

/** `/api/chains`. */
export const metricsChainRoutes = {
  'GET /api/chains': ({ store, filter, query }) => {
    const m = metricsOf(store);
    refuseBefore(query, '/api/chains', 'offset');
    const limit = limitOf(query, 50, 500);
    const offset = intParam(query, 'offset') ?? 0;
    const resolved = bool(query, 'resolved');
    const r = m.chains(filter, { resolved, limit, offset });
    return {
      total: r.total,
      resolved: r.resolved,
      unresolved: r.total - r.resolved,
      offset,
      limit,
      by_tool: r.byTool
        .map(([tool, chains, res]) => ({ tool, chains, resolved: res, unresolved: chains - res }))
        .sort((a, b) => b.chains - a.chains || (a.tool < b.tool ? -1 : 1)),
      chains: chainViews(r.members).sort((a, b) => b.started_ms - a.started_ms || b.id - a.id),
      filter: echo(filter),
    };
  },
} satisfies RouteMap;
