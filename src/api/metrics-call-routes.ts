/** The calls behind any number: metric conditions on stored per-call facts, keyset-paged. */
import { OUTCOME_CLASSES } from '../shared/outcomes.js';
import { LATENCY_BUCKETS } from '../metrics/latency.js';
import { LINK } from '../metrics/links.js';
import { callView } from '../metrics/report.js';
import { SIZE_BUCKET_COUNT } from '../metrics/sizes.js';
import { metricsOf } from '../store/metrics/queries.js';
import { echo } from './metrics-params.js';
import { bool, cursorParam, intParam, limitOf, refuseBefore } from './params.js';
import { ApiError, type RouteMap } from './types.js';
import type { CallFilter } from '../shared/rows.js';

/**
 * Metric conditions for the calls behind a number (`GET /api/metrics/calls`), and `classes`:
 * the outcome classes they select when they say nothing else (every class without
 * conditions), so the total can be counted from the stat rollups.
 */
function callConditions(q: URLSearchParams): {
  sql: string;
  params: Record<string, string | number>;
  classes: number[] | null;
} {
  const parts: string[] = [];
  const params: Record<string, string | number> = {};
  let classes = [0, 1, 2, 3, 4];
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
    classes = classes.filter((c) => c === i);
  }
  const errors = bool(q, 'errors');
  if (errors !== undefined) {
    parts.push(errors ? "outcome <> 'ok'" : "outcome = 'ok'");
    classes = classes.filter((c) => (errors ? c >= 2 : c < 2));
  }
  const outcomeParts = parts.length;
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
        `latency: expected one of ${LATENCY_BUCKETS.map((b) => b.key).join(', ')}, received '${latency.slice(0, 80)}'`,
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
      throw new ApiError(
        400,
        `size_bucket: expected 0–${SIZE_BUCKET_COUNT - 1}, received '${size}'`,
      );
    parts.push('size_bucket = @size_bucket');
    params.size_bucket = size;
  }
  const fromTool = q.get('from_tool');
  if (fromTool) {
    parts.push('prev_tool = @from_tool');
    params.from_tool = fromTool;
  }
  const text = q.get('q')?.trim();
  if (text) {
    // The filter box: a substring of the tool, client, session id, args hash or outcome.
    parts.push(
      "(instr(lower(tool_name), @q) > 0 OR instr(lower(client_name), @q) > 0 OR instr(lower(session_id), @q) > 0 OR instr(lower(args_hash), @q) > 0 OR instr(lower(outcome), @q) > 0 OR instr(lower(replace(outcome, '_', ' ')), @q) > 0)",
    );
    params.q = text.toLowerCase().slice(0, 200);
  }
  const chain = intParam(q, 'chain');
  if (chain !== undefined) {
    parts.push('chain = 1 AND run_id = @chain');
    params.chain = chain;
  }
  return {
    sql: parts.join(' AND '),
    params,
    classes: parts.length === outcomeParts ? classes : null,
  };
}

/**
 * The exact number of calls behind a number: from the stat rollups when the conditions are
 * outcomes only and no session narrows the view (a tool's whole history is rows, not calls),
 * else by counting the matching calls.
 */
function totalOf(
  m: ReturnType<typeof metricsOf>,
  filter: CallFilter,
  where: ReturnType<typeof callConditions>,
): number {
  const { classes } = where;
  if (classes === null || filter.session !== undefined) return m.countCalls(filter, where);
  let n = 0;
  for (const r of m.stats(filter)) if (classes.includes(r.oc)) n += r.calls;
  return n;
}

/** `/api/metrics/calls`. */
export const metricsCallRoutes = {
  'GET /api/metrics/calls': ({ store, filter, query }) => {
    const m = metricsOf(store);
    const limit = limitOf(query, 100, 1000);
    refuseBefore(query, '/api/metrics/calls', 'cursor');
    const before = cursorParam(query);
    const where = callConditions(query);
    const rows = m.calls(filter, where, { limit, before });
    const last = rows.at(-1);
    // Each row carries what names its session, so a list shows names, not `s_…` ids.
    const names = m.sessionNamesOf(rows);
    return {
      calls: rows.map((r) => {
        const name = names.get(`${r.project_id}:${r.session_id}`);
        return {
          ...callView(r),
          session_name: {
            label: name?.label ?? null,
            first_tool: name?.first_tool ?? null,
            first_seen_ms: name?.first_call_ms ?? null,
          },
        };
      }),
      // The exact count of every page together, so the page never says "200+".
      total: totalOf(m, filter, where),
      next_cursor: rows.length === limit && last ? `${last.started_ms}:${last.id}` : null,
      filter: echo(filter),
    };
  },
} satisfies RouteMap;
