/** Summary routes: the view's headline numbers, its insights and its clients. */
import { firstCallSuccessOf, groupStats, rate, totalStats } from '../metrics/aggregate.js';
import { INSIGHT_MIN_CALLS, THRESHOLDS } from '../shared/metric-constants.js';
import { buildSummary, insightsOf } from '../metrics/report.js';
import { withContentInsights } from '../metrics/insights.js';
import { metricsOf, type MetricsQueries } from '../store/metrics/queries.js';
import type { CallFilter } from '../shared/rows.js';
import { badArgsRunsOf } from './insight-streaks.js';
import { echo, price } from './metrics-params.js';
import type { RouteMap } from './types.js';
import { contentInsightsOf } from './tool-error-routes.js';

/** Summary-level inputs for a filter. */
export function summaryOf(m: MetricsQueries, filter: CallFilter) {
  const stats = m.stats(filter);
  const percentiles = m.percentiles(filter);
  const registered = m.registered(filter);
  const schema = m.sessionSchema(filter);
  const summary = buildSummary({
    stats,
    percentiles,
    registered,
    sessions: schema.sessions,
    schema,
    usdPerMillion: price(m),
    onlyTool: filter.tool,
  });
  return { stats, registered, schema, summary, percentiles };
}

/** `/api/summary`, `/api/insights`, `/api/clients`. */
export const metricsSummaryRoutes = {
  'GET /api/summary': ({ store, filter }) => {
    const m = metricsOf(store);
    const { summary, percentiles } = summaryOf(m, filter);
    return {
      ...summary,
      // The Overview's latency chart: the tool page's log buckets over the whole view, from
      // the histogram the percentiles already read (no second scan of the calls).
      latency: { ...summary.latency, histogram: percentiles.histogram() },
      filter: echo(filter),
    };
  },

  'GET /api/insights': ({ store, filter }) => {
    const m = metricsOf(store);
    const { summary, stats } = summaryOf(m, filter);
    return {
      // The count-based insights and the content ones (proxied calls' error texts,
      // src/metrics/error-insights.ts), ranked together by impact.
      insights: withContentInsights(
        insightsOf(
          summary.tools,
          groupStats(stats, (r) => r.tool),
          badArgsRunsOf(m, filter, summary.tools),
        ),
        contentInsightsOf(store, filter),
      ),
      min_calls: INSIGHT_MIN_CALLS,
      thresholds: THRESHOLDS,
      filter: echo(filter),
    };
  },

  'GET /api/clients': ({ store, filter }) => {
    const m = metricsOf(store);
    const stats = m.stats(filter);
    const total = totalStats(stats).calls;
    const sessions = m.sessionsPerClient(filter);
    const byClient = groupStats(stats, (r) => r.client);
    return {
      clients: [...byClient.entries()]
        .map(([client, s]) => ({
          client,
          calls: s.calls,
          share: rate(s.calls, total),
          sessions: sessions.get(client) ?? 0,
          first_call_success: firstCallSuccessOf(s),
          outcomes: s.outcomes,
          error_rate: rate(
            s.outcomes.bad_args + s.outcomes.tool_error + s.outcomes.crashed,
            s.calls,
          ),
          retries: s.retries,
          retry_chains: s.retry_chains,
          avg_response_units: rate(s.response_units, s.calls),
          avg_ms: rate(s.duration_ms_total, s.calls),
        }))
        .sort((a, b) => b.calls - a.calls || (a.client < b.client ? -1 : 1)),
      filter: echo(filter),
    };
  },
} satisfies RouteMap;
