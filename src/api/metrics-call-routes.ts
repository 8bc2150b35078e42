/** The calls behind any number: metric conditions on stored per-call facts, keyset-paged. */
import { OUTCOME_CLASSES } from '../shared/outcomes.js';
import { LATENCY_BUCKETS } from '../metrics/latency.js';
import { callView } from '../metrics/report.js';
import { SIZE_BUCKET_COUNT } from '../metrics/sizes.js';
import { metricsOf } from '../store/metrics/queries.js';
import { echo } from './metrics-params.js';
import { bool, cursorParam, intParam, limitOf, refuseBefore } from './params.js';
import { ApiError, type RouteMap } from './types.js';
import { CALL_FLAGS, type CallConditions } from '../shared/call-conditions.js';
import type { CallFilter } from '../shared/rows.js';

/**
 * Metric conditions for the calls behind a number (`GET /api/metrics/calls`), checked (a 400
 * names the parameter) and passed to the store as data, and `classes`: the outcome classes they
 * select when they say nothing else (every class without conditions), so the total can be
 * counted from the stat rollups.
 */
function callConditions(q: URLSearchParams): {
  conditions: CallConditions;
  classes: number[] | null;
} {
  const c: CallConditions = {};
  let classes = [0, 1, 2, 3, 4];
  const outcome = q.get('outcome');
  if (outcome) {
    const i = (OUTCOME_CLASSES as readonly string[]).indexOf(outcome);
    if (i < 0)
      throw new ApiError(
        400,
        `outcome: expected one of ${OUTCOME_CLASSES.join(', ')}, received '${outcome}'`,
      );
    c.outcomeClass = i;
    classes = classes.filter((k) => k === i);
  }
  const errors = bool(q, 'errors');
  if (errors !== undefined) {
    c.errors = errors;
    classes = classes.filter((k) => (errors ? k >= 2 : k < 2));
  }
  for (const flag of CALL_FLAGS) {
    const v = bool(q, flag);
    if (v !== undefined) (c.flags ??= {})[flag] = v;
  }
  const latency = q.get('latency');
  if (latency) {
    const i = LATENCY_BUCKETS.findIndex((b) => b.key === latency);
    if (i < 0)
      throw new ApiError(
        400,
        `latency: expected one of ${LATENCY_BUCKETS.map((b) => b.key).join(', ')}, received '${latency.slice(0, 80)}'`,
      );
    c.latencyBucket = i;
  }
  const size = intParam(q, 'size_bucket');
  if (size !== undefined) {
    if (size >= SIZE_BUCKET_COUNT)
      throw new ApiError(
        400,
        `size_bucket: expected 0–${SIZE_BUCKET_COUNT - 1}, received '${size}'`,
      );
    c.sizeBucket = size;
  }
  const fromTool = q.get('from_tool');
  if (fromTool) c.fromTool = fromTool;
  const text = q.get('q')?.trim();
  if (text) c.text = text;
  const chain = intParam(q, 'chain');
  if (chain !== undefined) c.chain = chain;
  const outcomesOnly = Object.keys(c).every((k) => k === 'outcomeClass' || k === 'errors');
  return { conditions: c, classes: outcomesOnly ? classes : null };
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
  if (classes === null || filter.session !== undefined)
    return m.countCalls(filter, where.conditions);
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
    const rows = m.calls(filter, where.conditions, { limit, before });
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
