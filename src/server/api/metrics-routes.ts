/**
 * Metrics routes: parse → store query → pure fold (src/metrics) → JSON. Shapes are documented
 * in docs/api.md, "Metrics routes"; definitions in docs/metrics.md.
 */
import {
  emptyStats,
  firstCallSuccessOf,
  groupStats,
  OUTCOME_CLASSES,
  rate,
  totalStats,
  type Stats,
} from '../../metrics/aggregate.js';
import { DEFAULT_USD_PER_MILLION_TOKENS, HOUR_MS } from '../../metrics/constants.js';
import { LATENCY_BUCKETS } from '../../metrics/latency.js';
import { LINK } from '../../metrics/links.js';
import {
  buildSummary,
  buildToolSummaries,
  callView,
  chainViews,
  costOf,
  insightsOf,
  latencyOfCalls,
  logHistogramOfCounts,
  registeredByName,
  sessionCallViews,
  sizeHistogramOf,
  toolBreakdown,
  valueHistogram,
} from '../../metrics/report.js';
import { costUsd, SIZE_BUCKET_COUNT, tokensOf } from '../../metrics/sizes.js';
import { bucketStart, bucketStarts, GRANULARITY_MS, type Granularity } from '../../metrics/time.js';
import { THRESHOLDS, INSIGHT_MIN_CALLS } from '../../metrics/constants.js';
import {
  metricsOf,
  type MetricsQueries,
  type SessionRow,
  type SessionSort,
} from '../../store/metrics/queries.js';
import type { CallFilter } from '../../store/types.js';
import { intParam } from './router.js';
import { ApiError, type ApiContext, type RouteMap } from './types.js';

const PRICE_KEY = 'metrics.usd_per_million_tokens';

function price(m: MetricsQueries): number {
  const v = m.getSetting(PRICE_KEY);
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : DEFAULT_USD_PER_MILLION_TOKENS;
}

const iso = (ms: number | undefined | null): string | null =>
  ms === undefined || ms === null ? null : new Date(ms).toISOString();

/** The filter as applied, echoed so a view can show and link it. */
const echo = (f: CallFilter) => ({
  project: f.projectId ?? null,
  from: iso(f.from),
  to: iso(f.to),
  tool: f.tool ?? null,
  client: f.client ?? null,
  session: f.session ?? null,
});

function oneOf<T extends string>(
  q: URLSearchParams,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const v = q.get(name);
  if (v === null || v === '') return fallback;
  if (!(allowed as readonly string[]).includes(v)) {
    throw new ApiError(400, `${name}: expected one of ${allowed.join(', ')}, received '${v}'`);
  }
  return v as T;
}

function bool(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new ApiError(400, `${name}: expected true or false, received '${v}'`);
}

function limitOf(q: URLSearchParams, fallback: number, max: number): number {
  const n = intParam(q, 'limit') ?? fallback;
  if (n < 1) throw new ApiError(400, 'limit: expected at least 1');
  return Math.min(n, max);
}

const SESSION_SORTS: readonly SessionSort[] = [
  'last_seen',
  'first_seen',
  'duration',
  'calls',
  'first_call_success',
  'retries',
  'chains',
  'errors',
  'units',
  'cost',
];

/** One sessions-list row as the API shows it. */
function sessionView(r: SessionRow, usdPerMillion: number) {
  const outcomes = {
    ok: r.ok,
    empty: r.empty,
    bad_args: r.bad_args,
    tool_error: r.tool_error,
    crashed: r.crashed,
  };
  const schema = r.schema_bytes ?? 0;
  const errors = r.bad_args + r.tool_error + r.crashed;
  return {
    id: r.session_id,
    project_id: r.project_id,
    clients: r.clients,
    first_seen: iso(r.first_ms),
    last_seen: iso(r.last_ms),
    first_seen_ms: r.first_ms,
    last_seen_ms: r.last_ms,
    /** First call's start to the last call's end. */
    duration_ms: r.last_end_ms - r.first_ms,
    calls: r.calls,
    outcomes,
    errors,
    error_rate: rate(errors, r.calls),
    first_call_success: { rate: rate(r.fcs, r.calls), successes: r.fcs, calls: r.calls },
    retries: r.retries,
    repeats: r.repeats,
    unknown_links: r.unknown_links,
    retry_chains: r.chains,
    slow_calls: r.slow,
    avg_ms: rate(r.duration, r.calls),
    response_units: r.units,
    response_tokens: tokensOf(r.units),
    schema_bytes: r.schema_bytes,
    schema_tokens: tokensOf(schema),
    tokens: tokensOf(r.units + schema),
    cost_usd: costUsd(r.units + schema, usdPerMillion),
  };
}

/** Summary-level inputs for a filter. */
function summaryOf(m: MetricsQueries, filter: CallFilter) {
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
  return { stats, registered, schema, summary };
}

function sessionDetail(
  m: MetricsQueries,
  id: string,
  projectId: number | undefined,
  usdPerMillion: number,
) {
  const project = m.sessionProject(id, projectId);
  if (project === undefined)
    throw new ApiError(
      404,
      `no session '${id}'${projectId !== undefined ? ' in this project' : ''}`,
    );
  const list = m.sessions(
    { projectId: project, session: id },
    { sort: 'last_seen', order: 'desc', limit: 1, offset: 0 },
  );
  const row = list.rows[0];
  if (!row) throw new ApiError(404, `no session '${id}'`);
  const calls = m.sessionCalls(project, id);
  const views = sessionCallViews(calls);
  return {
    session: sessionView(row, usdPerMillion),
    startups: m.sessionStartups(project, id).map((s) => ({
      ...s,
      received_at: iso(s.received_ms),
      schema_bytes: s.tools.reduce((a, t) => a + t.schema_bytes, 0),
    })),
    latency: latencyOfCalls(calls),
    tools: toolBreakdown(calls),
    chains: chainViews(calls.filter((c) => c.chain === 1)).map(({ calls: _c, ...chain }) => chain),
    calls: views,
  };
}

/** Metric conditions for the calls behind a number (`GET /api/metrics/calls`). */
function callConditions(q: URLSearchParams): {
  sql: string;
  params: Record<string, string | number>;
} {
  const parts: string[] = [];
  const params: Record<string, string | number> = {};
  const outcome = q.get('outcome');
  if (outcome) {
    const i = (OUTCOME_CLASSES as readonly string[]).indexOf(outcome);
    if (i < 0)
      throw new ApiError(
        400,
        `outcome: expected one of ${OUTCOME_CLASSES.join(', ')}, received '${outcome}'`,
      );
    parts.push(
      [
        "outcome = 'ok' AND is_empty = 0",
        "outcome = 'ok' AND is_empty = 1",
        "outcome = 'bad_args'",
        "outcome = 'tool_error'",
        "outcome = 'crashed'",
      ][i]!,
    );
  }
  if (q.get('errors') === 'true') parts.push("outcome <> 'ok'");
  const flags: [string, string][] = [
    ['first_call_success', 'fcs = 1'],
    ['retried', `link = ${LINK.retry}`],
    ['repeated', `link = ${LINK.repeat}`],
    ['unknown_link', `link = ${LINK.unknown}`],
    ['retry_of_previous', `prev_link = ${LINK.retry}`],
    ['in_chain', 'chain = 1'],
  ];
  for (const [name, sql] of flags) {
    const v = bool(q, name);
    if (v !== undefined) parts.push(v ? sql : `NOT (${sql})`);
  }
  const latency = q.get('latency');
  if (latency) {
    const i = LATENCY_BUCKETS.findIndex((b) => b.key === latency);
    if (i < 0)
      throw new ApiError(
        400,
        `latency: expected one of ${LATENCY_BUCKETS.map((b) => b.key).join(', ')}`,
      );
    const lo = [0, 100, 500, 2000][i]!;
    const hi = [100, 500, 2000, null][i];
    parts.push(
      hi === null || hi === undefined
        ? `duration_ms >= ${lo}`
        : `duration_ms >= ${lo} AND duration_ms < ${hi}`,
    );
  }
  const size = intParam(q, 'size_bucket');
  if (size !== undefined) {
    if (size >= SIZE_BUCKET_COUNT)
      throw new ApiError(400, `size_bucket: expected 0–${SIZE_BUCKET_COUNT - 1}`);
    parts.push('size_bucket = @size_bucket');
    params.size_bucket = size;
  }
  const fromTool = q.get('from_tool');
  if (fromTool) {
    parts.push('prev_tool = @from_tool');
    params.from_tool = fromTool;
  }
  const chain = intParam(q, 'chain');
  if (chain !== undefined) {
    parts.push('chain = 1 AND run_id = @chain');
    params.chain = chain;
  }
  return { sql: parts.join(' AND '), params };
}

export const metricsRoutes: RouteMap = {
  'GET /api/summary': ({ store, filter }) => {
    const m = metricsOf(store);
    return { ...summaryOf(m, filter).summary, filter: echo(filter) };
  },

  'GET /api/tools': ({ store, filter }) => {
    const m = metricsOf(store);
    const { summary, stats } = summaryOf(m, filter);
    const byTool = groupStats(stats, (r) => r.tool);
    return {
      tools: summary.tools,
      insights: insightsOf(summary.tools, byTool),
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
      insights: insightsOf(tools, byTool),
      latency: {
        ...tool.latency,
        histogram: logHistogramOfCounts(m.toolDurations({ ...f, tool: name })),
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

  'GET /api/sessions': ({ store, filter, query }) => {
    const m = metricsOf(store);
    const sort = oneOf(query, 'sort', SESSION_SORTS, 'last_seen');
    const order = oneOf(query, 'order', ['asc', 'desc'] as const, 'desc');
    const limit = limitOf(query, 50, 1000);
    const offset = intParam(query, 'offset') ?? 0;
    const usd = price(m);
    const { total, rows } = m.sessions(filter, {
      q: query.get('q') ?? undefined,
      sort,
      order,
      limit,
      offset,
    });
    return {
      total,
      offset,
      limit,
      sessions: rows.map((r) => sessionView(r, usd)),
      filter: echo(filter),
    };
  },

  'GET /api/sessions/:id': ({ store, filter, params }) => {
    const m = metricsOf(store);
    return sessionDetail(m, params.id!, filter.projectId, price(m));
  },

  'GET /api/compare': ({ store, filter, query }) => {
    const m = metricsOf(store);
    const a = query.get('a');
    const b = query.get('b');
    if (!a || !b) throw new ApiError(400, 'compare: give two sessions as a=…&b=…');
    const usd = price(m);
    const left = sessionDetail(m, a, filter.projectId, usd);
    const right = sessionDetail(m, b, filter.projectId, usd);
    const names = [
      ...new Set([...left.tools.map((t) => t.tool), ...right.tools.map((t) => t.tool)]),
    ].sort();
    return {
      a: { session: left.session, latency: left.latency, chains: left.chains.length },
      b: { session: right.session, latency: right.latency, chains: right.chains.length },
      tools: names.map((tool) => ({
        tool,
        a: left.tools.find((t) => t.tool === tool) ?? null,
        b: right.tools.find((t) => t.tool === tool) ?? null,
      })),
    };
  },

  'GET /api/chains': ({ store, filter, query }) => {
    const m = metricsOf(store);
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

  'GET /api/timeseries': ({ store, filter, query }) => {
    const m = metricsOf(store);
    const tz = Number(query.get('tz') ?? 0);
    if (!Number.isInteger(tz) || Math.abs(tz) > 14 * 60)
      throw new ApiError(400, 'tz: expected minutes east of UTC, −840 to 840');
    const offsetMs = tz * 60_000;
    const extent = m.extent(filter);
    const dataTo = extent.last_ms === null ? null : extent.last_ms + 1;
    const span = (filter.to ?? dataTo ?? 0) - (filter.from ?? extent.first_ms ?? 0);
    const auto: Granularity = span <= 72 * HOUR_MS ? 'hour' : 'day';
    const bucket = oneOf(query, 'bucket', ['hour', 'day'] as const, auto);
    const width = GRANULARITY_MS[bucket];
    // An open end follows the data out to whole buckets (so whole days come from the rollup).
    const from =
      filter.from ??
      (extent.first_ms === null ? null : bucketStart(extent.first_ms, width, offsetMs));
    const to =
      filter.to ?? (dataTo === null ? null : bucketStart(dataTo - 1, width, offsetMs) + width);
    const base = {
      bucket,
      width_ms: width,
      tz,
      from: iso(from),
      to: iso(to),
      filter: echo(filter),
    };
    if (from === null || to === null || to <= from) return { ...base, points: [] };
    const starts = bucketStarts(from, to, width, offsetMs);
    if (starts.length > 5000)
      throw new ApiError(
        400,
        `that range has ${starts.length} ${bucket}s; use bucket=day or a shorter range`,
      );
    const f = { ...filter, from, to };
    const usd = price(m);
    const acc = new Map<number, Stats>();
    for (const [b, oc, link, calls, units] of m.series(f, width, offsetMs)) {
      const s = acc.get(b) ?? emptyStats();
      acc.set(b, s);
      s.calls += calls;
      s.outcomes[OUTCOME_CLASSES[oc] ?? 'crashed'] += calls;
      if (oc === 0 && link !== LINK.retry) s.first_call_successes += calls;
      if (link === LINK.retry) s.retries += calls;
      s.response_units += units;
    }
    const p95 = m.seriesP95(f, width, offsetMs);
    const started = new Map<number, number>();
    for (const ms of m.sessionStarts(f)) {
      const b = bucketStart(ms, width, offsetMs);
      started.set(b, (started.get(b) ?? 0) + 1);
    }
    return {
      ...base,
      points: starts.map((start) => {
        const s = acc.get(start) ?? emptyStats();
        return {
          start_ms: start,
          start: iso(start),
          calls: s.calls,
          first_call_success: firstCallSuccessOf(s),
          outcomes: s.outcomes,
          errors: s.outcomes.bad_args + s.outcomes.tool_error + s.outcomes.crashed,
          retries: s.retries,
          response_units: s.response_units,
          cost_usd: costUsd(s.response_units, usd),
          p95_ms: p95.get(start) ?? null,
          sessions_started: started.get(start) ?? 0,
        };
      }),
    };
  },

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

  'GET /api/insights': ({ store, filter }) => {
    const m = metricsOf(store);
    const { summary, stats } = summaryOf(m, filter);
    return {
      insights: insightsOf(
        summary.tools,
        groupStats(stats, (r) => r.tool),
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

  'GET /api/metrics/calls': ({ store, filter, query }) => {
    const m = metricsOf(store);
    const limit = limitOf(query, 100, 1000);
    const cursor = query.get('cursor');
    let before: { ms: number; id: number } | undefined;
    if (cursor) {
      const m2 = /^(-?\d+):(\d+)$/.exec(cursor);
      if (!m2) throw new ApiError(400, 'cursor: expected the next_cursor of the previous page');
      before = { ms: Number(m2[1]), id: Number(m2[2]) };
    }
    const rows = m.calls(filter, callConditions(query), { limit, before });
    const last = rows.at(-1);
    return {
      calls: rows.map((r) => callView(r)),
      next_cursor: rows.length === limit && last ? `${last.started_ms}:${last.id}` : null,
      filter: echo(filter),
    };
  },

  'GET /api/settings/pricing': ({ store }) => ({
    usd_per_million_tokens: price(metricsOf(store)),
    default_usd_per_million_tokens: DEFAULT_USD_PER_MILLION_TOKENS,
  }),

  'PUT /api/settings/pricing': ({ store, body }: ApiContext) => {
    const v = (body as { usd_per_million_tokens?: unknown } | undefined)?.usd_per_million_tokens;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1_000_000) {
      throw new ApiError(400, 'usd_per_million_tokens: expected a number from 0 to 1,000,000');
    }
    const m = metricsOf(store);
    m.setSetting(PRICE_KEY, v);
    return {
      usd_per_million_tokens: price(m),
      default_usd_per_million_tokens: DEFAULT_USD_PER_MILLION_TOKENS,
    };
  },
};
