/** Session routes: the sessions list, one session in full, and two sessions compared. */
import { rate } from '../metrics/aggregate.js';
import { clockSuspect } from '../metrics/clock.js';
import { chainViews, latencyOfCalls, sessionCallViews, toolBreakdown } from '../metrics/report.js';
import { declaredCoverage, sdkFacts } from '../metrics/sdk-facts.js';
import { costUsd, tokensOf } from '../metrics/sizes.js';
import { SESSION_SORTS } from '../shared/session-sorts.js';
import { metricsOf, type MetricsQueries, type SessionRow } from '../store/metrics/queries.js';
import type { ContentReader } from '../store/proxy-content-read.js';
import { echo, iso, price } from './metrics-params.js';
import { intParam, limitOf, oneOf, refuseBefore } from './params.js';
import { ApiError, type RouteMap } from './types.js';

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
    /** What titles the row: an SDK's label if one came as an extra field, else the first tool. */
    label: r.label,
    first_tool: r.first_tool,
    first_seen: iso(r.first_ms),
    last_seen: iso(r.last_ms),
    first_seen_ms: r.first_ms,
    last_seen_ms: r.last_ms,
    /** `future` / `past` when the dates look like a wrong clock (src/metrics/clock.ts). */
    clock_suspect: clockSuspect(r.first_ms, r.last_ms, Date.now()),
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
    /** Who reported the session, when its startup says (`mcpulse-devtools-proxy@…` = proxied). */
    sdk: r.sdk,
  };
}

/**
 * The row of a proxied session that has content but no call yet (the client closed before any
 * tool answered, or only listed tools): every count zero, its times those of its content.
 */
function contentOnlyRow(
  project: number,
  id: string,
  span: { first_ms: number; last_ms: number; client_name: string | null },
): SessionRow {
  const first = Math.floor(span.first_ms);
  const last = Math.floor(span.last_ms);
  return {
    project_id: project,
    session_id: id,
    clients: span.client_name ? [span.client_name] : [],
    first_ms: first,
    last_ms: last,
    last_end_ms: last,
    calls: 0,
    ok: 0,
    empty: 0,
    bad_args: 0,
    tool_error: 0,
    crashed: 0,
    fcs: 0,
    retries: 0,
    repeats: 0,
    unknown_links: 0,
    chains: 0,
    units: 0,
    duration: 0,
    slow: 0,
    schema_bytes: null,
    sdk: null,
    first_tool: null,
    label: null,
    first_call_ms: null,
  };
}

function sessionDetail(
  m: MetricsQueries,
  content: ContentReader,
  id: string,
  projectId: number | undefined,
  usdPerMillion: number,
) {
  const project = m.sessionProject(id, projectId) ?? content.sessionProject(id, projectId);
  if (project === undefined)
    throw new ApiError(
      404,
      `no session '${id}'${projectId !== undefined ? ' in this project' : ''}`,
    );
  const list = m.sessions(
    { projectId: project, session: id },
    { sort: 'last_seen', order: 'desc', limit: 1, offset: 0 },
  );
  // A session with only a startup or only proxied content has no calls, and still a page.
  const span = list.rows[0] ? null : content.sessionSpan(project, id);
  const startups = m.sessionStartups(project, id);
  const row =
    list.rows[0] ??
    (span
      ? contentOnlyRow(project, id, span)
      : startups[0]
        ? contentOnlyRow(project, id, {
            first_ms: startups[0].received_ms,
            last_ms: startups[startups.length - 1]!.received_ms,
            client_name: startups[0].client_name,
          })
        : undefined);
  if (!row) throw new ApiError(404, `no session '${id}'`);
  const calls = m.sessionCalls(project, id);
  const views = sessionCallViews(calls);
  return {
    session: sessionView(row, usdPerMillion),
    startups: startups.map((s) => ({
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
/** `/api/sessions`, `/api/sessions/:id`, `/api/compare`. */
export const metricsSessionRoutes = {
  'GET /api/sessions': ({ store, filter, query }) => {
    const m = metricsOf(store);
    const sort = oneOf(query, 'sort', SESSION_SORTS, 'last_seen');
    const order = oneOf(query, 'order', ['asc', 'desc'] as const, 'desc');
    const limit = limitOf(query, 50, 1000);
    refuseBefore(query, '/api/sessions', 'offset');
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
    const detail = sessionDetail(m, store.read.content, params.id!, filter.projectId, price(m));
    const where = { projectId: detail.session.project_id, session: params.id! };
    const sdk = sdkFacts(store.read.startups(where, { limit: 50 }).map((s) => s.extra));
    const agreements = store.read.agreements.list(where, { limit: 200 });
    return {
      ...detail,
      // Extra startup fields that mean something (src/metrics/sdk-facts.ts), and the session's
      // agreement verdicts, newest first.
      sdk,
      agreements,
      // Each field the SDK declared it compares, with its verdicts; `never_checked` calls out a
      // declaration that never produced one.
      declared_fields: declaredCoverage(sdk?.declared_fields ?? null, agreements),
      // What the proxy learned at `initialize` (null for an SDK's session), and the requests
      // left unanswered at a clean close — shown apart, never counted as crashes.
      proxy: store.read.content.sessionInfo(where.projectId, where.session),
      unanswered: store.read.content.unanswered(where.projectId, where.session),
    };
  },

  'GET /api/compare': ({ store, filter, query }) => {
    const m = metricsOf(store);
    const a = query.get('a');
    const b = query.get('b');
    if (!a) throw new ApiError(400, 'a: give two sessions to compare as a=…&b=…');
    if (!b) throw new ApiError(400, 'b: give two sessions to compare as a=…&b=…');
    const usd = price(m);
    const left = sessionDetail(m, store.read.content, a, filter.projectId, usd);
    const right = sessionDetail(m, store.read.content, b, filter.projectId, usd);
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
} satisfies RouteMap;
