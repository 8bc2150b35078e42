/** Tool routes: the tools table, one tool's page, and tool pairs. */
import { firstCallSuccessOf, groupStats, rate } from '../metrics/aggregate.js';
import { buildToolSummaries, chainViews, insightsOf, sizeHistogramOf } from '../metrics/report.js';
import { costUsd, tokensOf } from '../metrics/sizes.js';
import { metricsOf } from '../store/metrics/queries.js';
import type { CallFilter } from '../shared/rows.js';
import { badArgsRunsOf } from './insight-streaks.js';
import { echo, price } from './metrics-params.js';
import { limitOf } from './params.js';
import { summaryOf } from './metrics-summary-routes.js';
import { ApiError, type RouteMap } from './types.js';

/** `/api/tools`, `/api/tools/:name`, `/api/pairs`. */
export const metricsToolRoutes = {
  'GET /api/tools': ({ store, filter }) => {
    const m = metricsOf(store);
    const { summary, stats } = summaryOf(m, filter);
    const byTool = groupStats(stats, (r) => r.tool);
    return {
      tools: summary.tools,
      insights: insightsOf(summary.tools, byTool, badArgsRunsOf(m, filter, summary.tools)),
      filter: echo(filter),
    };
  },

  'GET /api/tools/:name': ({ store, filter, params }) => {
    const m = metricsOf(store);
    const name = params.name!;
    const f: CallFilter = { ...filter, tool: name };
    const stats = m.stats(f);
    const percentiles = m.percentiles(f);
    const registered = m.registered(f);
    const { tools, stats: byTool } = buildToolSummaries({
      stats,
      percentiles,
      registered,
      onlyTool: name,
    });
    const tool = tools[0];
    if (!tool)
      throw new ApiError(404, `no tool '${name}' in this view (never called and not registered)`);
    const usd = price(m);
    const chains = m.chains(f, { limit: 20, offset: 0 });
    const pairs = m.pairs(f);
    const clients = groupStats(stats, (r) => r.client);
    const sizes = sizeHistogramOf(m.sizes(f));
    return {
      tool,
      insights: insightsOf(tools, byTool, badArgsRunsOf(m, f, tools)),
      latency: {
        ...tool.latency,
        histogram: percentiles.histogram(),
      },
      sizes: {
        histogram: sizes,
        response_units: tool.response_units,
        avg_response_units: tool.avg_response_bytes,
        response_tokens: tokensOf(tool.response_units),
        response_cost_usd: costUsd(tool.response_units, usd),
        schema_bytes: tool.schema_bytes,
        schema_tokens: tool.schema_bytes === null ? null : tokensOf(tool.schema_bytes),
        schema_cost_per_session_usd:
          tool.schema_bytes === null ? null : costUsd(tool.schema_bytes, usd),
      },
      chains: {
        total: chains.total,
        resolved: chains.resolved,
        unresolved: chains.total - chains.resolved,
        recent: chainViews(chains.members),
      },
      // Startup fingerprints newer SDKs send per tool (src/store/tool-fingerprints.ts).
      fingerprints: store.read.toolFingerprints(filter.projectId, name),
      pairs: {
        outgoing: pairs
          .filter(([a]) => a === name)
          .map(([, to, count]) => ({ tool: to, count }))
          .sort((a, b) => b.count - a.count || (a.tool < b.tool ? -1 : 1)),
        incoming: pairs
          .filter(([, b]) => b === name)
          .map(([from, , count]) => ({ tool: from, count }))
          .sort((a, b) => b.count - a.count || (a.tool < b.tool ? -1 : 1)),
      },
      clients: [...clients.entries()]
        .map(([client, s]) => ({
          client,
          calls: s.calls,
          first_call_success: firstCallSuccessOf(s),
          outcomes: s.outcomes,
        }))
        .sort((a, b) => b.calls - a.calls),
      usd_per_million_tokens: usd,
      filter: echo(f),
    };
  },

  'GET /api/pairs': ({ store, filter, query }) => {
    const m = metricsOf(store);
    const limit = limitOf(query, 50, 2000);
    const rows = m.pairs(filter);
    const merged = new Map<string, [string, string, number]>();
    for (const [a, b, n] of rows) {
      const k = JSON.stringify([a, b]);
      const e = merged.get(k);
      if (e) e[2] += n;
      else merged.set(k, [a, b, n]);
    }
    const total = [...merged.values()].reduce((s, [, , n]) => s + n, 0);
    const pairs = [...merged.values()]
      .sort((x, y) => y[2] - x[2] || (x[0] + x[1] < y[0] + y[1] ? -1 : 1))
      .slice(0, limit)
      .map(([from, to, count]) => ({ from, to, count, share: rate(count, total) }));
    return { total, distinct: merged.size, pairs, filter: echo(filter) };
  },
} satisfies RouteMap;
