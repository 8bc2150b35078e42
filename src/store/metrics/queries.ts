/**
 * Every metrics query. Whole days come from the rollups kept at ingest; partial-day edges,
 * session filters and per-call lists read raw calls through covering indexes. Nothing here
 * interprets the numbers: it returns rows that the pure functions in src/metrics fold.
 */
import type Database from 'better-sqlite3';
import type { StatRow } from '../../metrics/aggregate.js';
import { DAY_MS, HOUR_MS } from '../../metrics/constants.js';
import {
  fineBucketRange,
  octave,
  octaveRange,
  locateRank,
  mergeHistograms,
  percentiles as percentilesOf,
  valueAtRank,
} from '../../metrics/latency.js';
import { bucketStart, splitByDay, type Span } from '../../metrics/time.js';
import { statementCache } from '../statement-cache.js';
import type { CallFilter } from '../types.js';
import { createMetricsMaintainer } from './maintain.js';
import { ALL_TIME, HEAD_SQL, LATENCY_SUMS_SQL, OC_SQL } from './sql.js';

type Params = Record<string, string | number>;

/** WHERE parts for one table. `time` names its millisecond column (raw or day-aligned). */
function conditions(
  f: CallFilter,
  cols: { time?: string; tool?: string; client?: string; session?: string; alias?: string },
  span: Span = { from: f.from, to: f.to },
): { sql: string; params: Params } {
  const a = cols.alias ? `${cols.alias}.` : '';
  const parts: string[] = [`${a}project_id = @projectId`];
  const params: Params = {};
  if (cols.time && span.from !== undefined) {
    parts.push(`${a}${cols.time} >= @from`);
    params.from = span.from;
  }
  if (cols.time && span.to !== undefined) {
    parts.push(`${a}${cols.time} < @to`);
    params.to = span.to;
  }
  if (f.tool !== undefined && cols.tool) {
    parts.push(`${a}${cols.tool} = @tool`);
    params.tool = f.tool;
  }
  if (f.client !== undefined && cols.client) {
    parts.push(`${a}${cols.client} = @client`);
    params.client = f.client;
  }
  if (f.session !== undefined && cols.session) {
    parts.push(`${a}${cols.session} = @session`);
    params.session = f.session;
  }
  return { sql: parts.join(' AND '), params };
}

const RAW = { time: 'started_ms', tool: 'tool_name', client: 'client_name', session: 'session_id' };

/** WHERE parts for a rollup: the all-time rows when the span is unbounded, else whole days. */
function rollupConditions(
  f: CallFilter,
  cols: { tool?: string; client?: string },
  span: Span,
): { sql: string; params: Params } {
  const w = conditions(f, { ...cols, time: 'day_ms' }, span);
  const all = span.from === undefined && span.to === undefined;
  return { sql: `${w.sql} AND day_ms ${all ? '=' : '<>'} ${ALL_TIME}`, params: w.params };
}

/** Exact p50/p95/p99 (nearest rank). */
export interface Percentiles {
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}
const PS = [
  ['p50_ms', 0.5],
  ['p95_ms', 0.95],
  ['p99_ms', 0.99],
] as const;
const NO_PERCENTILES: Percentiles = { p50_ms: null, p95_ms: null, p99_ms: null };

/** Columns of a call with its stored facts, for lists and session detail. */
export const CALL_COLUMNS = `id, project_id, batch_id, session_id, client_name, tool_name, started_at, started_ms,
  duration_ms, outcome, response_bytes, is_empty, args_hash, received_ms, link, prev_link, fcs, run_id, chain,
  prev_tool, size_bucket`;

/** A call row with its stored facts. */
export interface FactRow {
  id: number;
  project_id: number;
  batch_id: number;
  session_id: string;
  client_name: string;
  tool_name: string;
  started_at: string;
  started_ms: number;
  duration_ms: number;
  outcome: string;
  response_bytes: number;
  is_empty: number;
  args_hash: string;
  received_ms: number;
  link: number;
  prev_link: number;
  fcs: number;
  run_id: number;
  chain: number;
  prev_tool: string | null;
  size_bucket: number;
}

/** One row of a sessions list. */
export interface SessionRow {
  project_id: number;
  session_id: string;
  clients: string[];
  first_ms: number;
  last_ms: number;
  last_end_ms: number;
  calls: number;
  ok: number;
  empty: number;
  bad_args: number;
  tool_error: number;
  crashed: number;
  fcs: number;
  retries: number;
  repeats: number;
  unknown_links: number;
  chains: number;
  units: number;
  duration: number;
  slow: number;
  schema_bytes: number | null;
}

export type SessionSort =
  | 'last_seen'
  | 'first_seen'
  | 'duration'
  | 'calls'
  | 'first_call_success'
  | 'retries'
  | 'chains'
  | 'errors'
  | 'units'
  | 'cost';

const SESSION_SORT_SQL: Record<SessionSort, string> = {
  last_seen: 'last_ms',
  first_seen: 'first_ms',
  duration: '(last_end_ms - first_ms)',
  calls: 'calls',
  first_call_success: '(CAST(fcs AS REAL) / calls)',
  retries: 'retries',
  chains: 'chains',
  errors: '(bad_args + tool_error + crashed)',
  units: 'units',
  cost: '(units + coalesce(schema_bytes, 0))',
};

/** A row of `metrics_chains`. */
export interface ChainRow {
  run_id: number;
  project_id: number;
  session_id: string;
  tool_name: string;
  client_name: string;
  first_ms: number;
  last_ms: number;
  last_end_ms: number;
  calls: number;
  retries: number;
  repeats: number;
  unknown_links: number;
  resolved: number;
  tail_id: number;
}

/** Registered tools of one project's latest startup. */
export interface RegisteredTool {
  project_id: number;
  startup_id: number;
  name: string;
  schema_bytes: number;
}

const SESSION_AGG_COLUMNS = (oc: string, head: string) => `
  min(started_ms) AS first_ms, max(started_ms) AS last_ms, max(started_ms + duration_ms) AS last_end_ms,
  count(*) AS calls, sum(${oc} = 0) AS ok, sum(${oc} = 1) AS empty, sum(${oc} = 2) AS bad_args,
  sum(${oc} = 3) AS tool_error, sum(${oc} = 4) AS crashed, sum(fcs) AS fcs, sum(link = 1) AS retries,
  sum(link = 2) AS repeats, sum(link = 3) AS unknown_links, sum(${head}) AS chains,
  sum(response_bytes) AS units, sum(duration_ms) AS duration, sum(duration_ms >= 2000) AS slow`;

/** Total schema size of a session's latest startup: NULL when it sent none. */
const SCHEMA_OF_SESSION = (p: string, s: string) =>
  `(SELECT coalesce((SELECT m.schema_bytes FROM metrics_startup_totals m WHERE m.startup_id = st.id), 0)
     FROM startups st INDEXED BY startups_by_session WHERE st.project_id = ${p} AND st.session_id = ${s}
     ORDER BY st.id DESC LIMIT 1)`;

/**
 * Below this share of a project's calls, a time range is read through `calls_by_time` and
 * grouped in a temporary b-tree (~2 µs a row); above it, one ordered scan of a whole-project
 * index (~0.4 µs an entry with its groups, no sorting) is cheaper. Measured on the bench data.
 */
const TIME_INDEX_SHARE = 0.2;

/** Bucket start of a millisecond column, for buckets of `widthMs` aligned at `offsetMs`. */
const bucketSql = (col: string, widthMs: number, offsetMs: number): string =>
  `((${col} + ${offsetMs}) - ((((${col} + ${offsetMs}) % ${widthMs}) + ${widthMs}) % ${widthMs}) - ${offsetMs})`;

/** Whether hourly rollups (no tool or client dimension) can answer a series. */
const hourlyEligible = (f: CallFilter, widthMs: number, offsetMs: number): boolean =>
  f.tool === undefined &&
  f.client === undefined &&
  f.session === undefined &&
  widthMs % HOUR_MS === 0 &&
  offsetMs % HOUR_MS === 0;

/**
 * Exact percentiles from a fine histogram (`[bucket, count]` sorted): locate each rank's
 * bucket, then read that bucket's exact `[duration, count]` values.
 */
function pick(
  fine: readonly (readonly [number, number])[],
  valuesIn: (lo: number, hi: number) => [number, number][],
  ps: readonly number[] = [0.5, 0.95, 0.99],
  rangeOf: (bucket: number) => [number, number] = fineBucketRange,
): Percentiles {
  const out: Percentiles = { ...NO_PERCENTILES };
  const cache = new Map<number, [number, number][]>();
  for (const [key, p] of PS) {
    if (!ps.includes(p)) continue;
    const at = locateRank(fine, p);
    if (!at) continue;
    let values = cache.get(at.bucket);
    if (!values) {
      const [lo, hi] = rangeOf(at.bucket);
      cache.set(at.bucket, (values = mergeHistograms([valuesIn(lo, hi)])));
    }
    out[key] = valueAtRank(values, at.rank);
  }
  return out;
}

/** Builds the metrics queries for one connection. */
export function createMetricsQueries(db: Database.Database, readonly = false) {
  const prepare = statementCache(db);
  const maintainer = readonly ? null : createMetricsMaintainer(db);
  const dirtyCount = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM metrics_dirty');
  const projectIds = db.prepare<[], { id: number }>('SELECT id FROM projects ORDER BY id').pluck();
  const latestStartup = db.prepare<[number], { id: number }>(
    'SELECT id FROM startups WHERE project_id = ? ORDER BY id DESC LIMIT 1',
  );
  const toolsOf = db.prepare<[number], { name: string; schema_bytes: number }>(
    'SELECT name, schema_bytes FROM startup_tools WHERE startup_id = ? ORDER BY position',
  );

  /** Rebuilds projects whose calls were deleted since the last write (exactness first). */
  function fresh(): void {
    if (maintainer && dirtyCount.get()!.n > 0) db.transaction(() => maintainer.rebuildDirty())();
  }

  /** The projects a filter covers: one, or all of them together. */
  function projectsOf(f: CallFilter): number[] {
    fresh();
    return f.projectId !== undefined ? [f.projectId] : (projectIds.all() as unknown as number[]);
  }

  const all = <T>(sql: string, params: Params): T[] => prepare(sql).all(params) as T[];

  /** Roughly what share of a project's calls the filter's time range holds (from the rollup). */
  function timeShare(p: number, f: CallFilter): number {
    if (f.from === undefined && f.to === undefined) return 1;
    const total =
      (prepare(`SELECT sum(calls) FROM metrics_daily WHERE project_id = ? AND day_ms = ${ALL_TIME}`)
        .pluck()
        .get(p) as number | null) ?? 0;
    if (total === 0) return 0;
    const inRange =
      (prepare(
        `SELECT sum(calls) FROM metrics_daily WHERE project_id = @p AND day_ms <> ${ALL_TIME}
         AND day_ms >= @from AND day_ms < @to`,
      )
        .pluck()
        .get({
          p,
          from: f.from === undefined ? -Number.MAX_SAFE_INTEGER : f.from - DAY_MS,
          to: f.to ?? Number.MAX_SAFE_INTEGER,
        }) as number | null) ?? 0;
    return inRange / total;
  }

  /**
   * The index for a read of (tool, duration, start, client, session) only: one tool's range,
   * a short time range, or the whole project in tool/duration order. `bySession` prefers
   * session order for DISTINCT session reads over large ranges.
   */
  function narrowIndex(p: number, f: CallFilter, bySession = false): string {
    if (f.session !== undefined) return '';
    if (f.tool !== undefined) return 'INDEXED BY calls_by_tool_duration';
    if ((f.from !== undefined || f.to !== undefined) && timeShare(p, f) < TIME_INDEX_SHARE) {
      return 'INDEXED BY calls_by_time';
    }
    return bySession ? 'INDEXED BY calls_by_session_tool' : 'INDEXED BY calls_by_tool_duration';
  }

  /** Stat rows from raw calls in `span` (any filter). */
  function rawStats(p: number, f: CallFilter, span: Span): StatRow[] {
    const w = conditions(f, RAW, span);
    return statRows(
      `SELECT tool_name, client_name, ${OC_SQL()}, link, ${HEAD_SQL()}, count(*), sum(response_bytes),
              sum(duration_ms), ${LATENCY_SUMS_SQL()}
       FROM calls WHERE ${w.sql} GROUP BY 1, 2, 3, 4, 5`,
      { ...w.params, projectId: p },
    );
  }

  /** Stat rows from the daily rollup for whole days in `span`, or its all-time rows. */
  function dailyStats(p: number, f: CallFilter, span: Span): StatRow[] {
    const w = rollupConditions(f, { tool: 'tool_name', client: 'client_name' }, span);
    // All-time rows are already one per key; whole days are summed per key.
    const allTime = span.from === undefined && span.to === undefined;
    return statRows(
      allTime
        ? `SELECT tool_name, client_name, oc, link, head, calls, units, duration, l0, l1, l2, l3
           FROM metrics_daily WHERE ${w.sql} AND calls > 0`
        : `SELECT tool_name, client_name, oc, link, head, sum(calls), sum(units), sum(duration),
                  sum(l0), sum(l1), sum(l2), sum(l3)
           FROM metrics_daily WHERE ${w.sql} GROUP BY 1, 2, 3, 4, 5 HAVING sum(calls) > 0`,
      { ...w.params, projectId: p },
    );
  }

  /** Runs a stat query in raw mode (several times faster than row objects) and names columns. */
  function statRows(sql: string, params: Params): StatRow[] {
    const rows = prepare(sql).raw().all(params) as [
      string,
      string,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ][];
    return rows.map(([tool, client, oc, link, head, calls, units, duration, l0, l1, l2, l3]) => ({
      tool,
      client,
      oc,
      link,
      head,
      calls,
      units,
      duration,
      l0,
      l1,
      l2,
      l3,
    }));
  }

  /** Splits work between the rollup (whole days) and raw calls (edges, session filters). */
  function byDays<T>(
    f: CallFilter,
    rollup: (p: number, span: Span) => T[],
    raw: (p: number, span: Span) => T[],
  ): T[] {
    const out: T[] = [];
    for (const p of projectsOf(f)) {
      if (f.session !== undefined) {
        out.push(...raw(p, { from: f.from, to: f.to }));
        continue;
      }
      const { days, edges } = splitByDay({ from: f.from, to: f.to });
      if (days) out.push(...rollup(p, days));
      for (const e of edges) out.push(...raw(p, e));
    }
    return out;
  }

  /** Exact percentiles by counting the matching calls' durations (any filter). */
  function exactPercentiles(
    projects: number[],
    f: CallFilter,
  ): { overall: Percentiles; byTool: Map<string, Percentiles> } {
    const perTool = new Map<string, [number, number][]>();
    for (const p of projects) {
      const w = conditions(f, RAW);
      const index = narrowIndex(p, f);
      const rows = prepare(
        `SELECT tool_name, duration_ms, count(*) FROM calls ${index} WHERE ${w.sql} GROUP BY 1, 2`,
      )
        .raw()
        .all({ ...w.params, projectId: p }) as [string, number, number][];
      for (const [t, d, n] of rows) {
        const list = perTool.get(t) ?? [];
        list.push([d, n]);
        perTool.set(t, list);
      }
    }
    const byTool = new Map<string, Percentiles>();
    for (const [t, list] of perTool) byTool.set(t, percentilesOf(mergeHistograms([list])));
    return { overall: percentilesOf(mergeHistograms(perTool.values())), byTool };
  }

  return {
    /** Additive stat rows (tool × client × outcome class × link × chain head) for a filter. */
    stats(f: CallFilter): StatRow[] {
      return byDays(
        f,
        (p, span) => dailyStats(p, f, span),
        (p, span) => rawStats(p, f, span),
      );
    },

    /**
     * Exact p50/p95/p99, overall and per tool. All-time views (no time, client or session
     * filter) find the fine bucket holding each rank in the latency rollup, then read only that
     * bucket's durations; any other view counts the matching calls' durations exactly.
     */
    percentiles(f: CallFilter): { overall: Percentiles; byTool: Map<string, Percentiles> } {
      const projects = projectsOf(f);
      const fast =
        f.from === undefined &&
        f.to === undefined &&
        f.client === undefined &&
        f.session === undefined;
      if (!fast) return exactPercentiles(projects, f);
      const byTool = new Map<string, Percentiles>();
      const fine = new Map<string, [number, number][]>();
      for (const p of projects) {
        const w = conditions(f, { tool: 'tool_name' });
        const rows = prepare(
          `SELECT tool_name, bucket, n FROM metrics_latency
           WHERE ${w.sql} AND tool_name <> '' AND n > 0`,
        )
          .raw()
          .all({ ...w.params, projectId: p }) as [string, number, number][];
        for (const [t, b, n] of rows) {
          const list = fine.get(t) ?? [];
          list.push([b, n]);
          fine.set(t, list);
        }
      }
      const inBucket = prepare(
        `SELECT duration_ms, count(*) FROM calls INDEXED BY calls_by_tool_duration
         WHERE project_id = ? AND tool_name = ? AND duration_ms >= ? AND duration_ms < ?
         GROUP BY duration_ms`,
      ).raw();
      for (const [tool, list] of fine) {
        const hist = mergeHistograms([list]);
        byTool.set(
          tool,
          pick(hist, (lo, hi) =>
            projects.flatMap((p) => inBucket.all(p, tool, lo, hi) as [number, number][]),
          ),
        );
      }
      if (f.tool !== undefined) return { overall: byTool.get(f.tool) ?? NO_PERCENTILES, byTool };
      const overallFine = mergeHistograms(
        projects.map(
          (p) =>
            prepare(
              `SELECT bucket, n FROM metrics_latency WHERE project_id = ? AND tool_name = '' AND n > 0`,
            )
              .raw()
              .all(p) as [number, number][],
        ),
      );
      const exact = prepare(
        `SELECT duration_ms, n FROM metrics_durations WHERE project_id = ? AND duration_ms >= ? AND duration_ms < ? AND n > 0`,
      ).raw();
      const overall = pick(overallFine, (lo, hi) =>
        projects.flatMap((p) => exact.all(p, lo, hi) as [number, number][]),
      );
      return { overall, byTool };
    },

    /**
     * Exact p95 per time bucket (`widthMs` aligned at `offsetMs` east of UTC). Without tool,
     * client or session filters and for whole-hour offsets, whole hours come from the hourly
     * latency rollup: it locates each bucket's p95 rank, then only that fine bucket's calls
     * are read. Partial hours, and any other view, count the matching calls directly.
     */
    seriesP95(f: CallFilter, widthMs: number, offsetMs: number): Map<number, number> {
      const out = new Map<number, number>();
      const projects = projectsOf(f);
      const rawSpans: Span[] = [];
      const fine = new Map<number, Map<number, number>>();
      const edgeValues = new Map<number, [number, number][]>();
      let hours: Span | null = null;
      if (hourlyEligible(f, widthMs, offsetMs)) {
        const split = splitByDay({ from: f.from, to: f.to }, HOUR_MS);
        hours = split.days;
        rawSpans.push(...split.edges);
        if (hours) {
          for (const p of projects) {
            const w = conditions({ projectId: p }, { time: 'hour_ms' }, hours);
            for (const [hr, b, n] of prepare(
              `SELECT hour_ms, bucket, n FROM metrics_latency_hourly WHERE ${w.sql} AND n > 0`,
            )
              .raw()
              .all({ ...w.params, projectId: p }) as [number, number, number][]) {
              const k = bucketStart(hr, widthMs, offsetMs);
              const m = fine.get(k) ?? new Map<number, number>();
              m.set(b, (m.get(b) ?? 0) + n);
              fine.set(k, m);
            }
          }
        }
      } else {
        rawSpans.push({ from: f.from, to: f.to });
      }
      const b = bucketSql('started_ms', widthMs, offsetMs);
      for (const span of rawSpans) {
        for (const p of projects) {
          const w = conditions(f, RAW, span);
          const rows = prepare(
            `SELECT ${b} AS b, duration_ms, count(*) FROM calls ${narrowIndex(p, { ...f, ...span })}
             WHERE ${w.sql} GROUP BY 1, 2`,
          )
            .raw()
            .all({ ...w.params, projectId: p }) as [number, number, number][];
          for (const [k, d, n] of rows) {
            const list = edgeValues.get(k) ?? [];
            list.push([d, n]);
            edgeValues.set(k, list);
          }
        }
      }
      const inRange = prepare(
        `SELECT duration_ms, count(*) FROM calls INDEXED BY calls_by_time
         WHERE project_id = ? AND started_ms >= ? AND started_ms < ? AND duration_ms >= ? AND duration_ms < ?
         GROUP BY duration_ms`,
      ).raw();
      const keys = new Set([...fine.keys(), ...edgeValues.keys()]);
      for (const k of keys) {
        const edges = edgeValues.get(k) ?? [];
        const counts = new Map(fine.get(k) ?? []);
        for (const [d, n] of edges) counts.set(octave(d), (counts.get(octave(d)) ?? 0) + n);
        const hist = [...counts.entries()].sort((x, y) => x[0] - y[0]);
        const v = pick(
          hist,
          (lo, hi) => {
            const vals: [number, number][] = edges.filter(([d]) => d >= lo && d < hi);
            if (hours && fine.has(k)) {
              const from = Math.max(k, hours.from ?? -Infinity);
              const to = Math.min(k + widthMs, hours.to ?? Infinity);
              for (const p of projects)
                vals.push(...(inRange.all(p, from, to, lo, hi) as [number, number][]));
            }
            return vals;
          },
          [0.95],
          octaveRange,
        ).p95_ms;
        if (v !== null) out.set(k, v);
      }
      return out;
    },

    /** Distinct sessions with at least one call matching the filter. */
    sessionCount(f: CallFilter): number {
      let n = 0;
      for (const p of projectsOf(f)) {
        const onlyClient =
          f.from === undefined &&
          f.to === undefined &&
          f.tool === undefined &&
          f.session === undefined;
        if (onlyClient) {
          const w = conditions(f, { client: 'client_name' });
          n +=
            (prepare(
              `SELECT count(*) FROM (SELECT DISTINCT session_id FROM metrics_sessions WHERE ${w.sql} AND calls > 0)`,
            )
              .pluck()
              .get({ ...w.params, projectId: p }) as number) ?? 0;
        } else {
          const w = conditions(f, RAW);
          n +=
            (prepare(
              `SELECT count(*) FROM (SELECT DISTINCT session_id FROM calls ${narrowIndex(p, f, true)} WHERE ${w.sql})`,
            )
              .pluck()
              .get({ ...w.params, projectId: p }) as number) ?? 0;
        }
      }
      return n;
    },

    /**
     * Sessions matching the filter, and the schema they loaded: the total of each session's
     * latest startup (sessions without a startup add nothing).
     */
    sessionSchema(f: CallFilter): { sessions: number; with_startup: number; schema_bytes: number } {
      const out = { sessions: 0, with_startup: 0, schema_bytes: 0 };
      for (const p of projectsOf(f)) {
        const plain =
          f.from === undefined &&
          f.to === undefined &&
          f.tool === undefined &&
          f.session === undefined;
        const w = plain ? conditions(f, { client: 'client_name' }) : conditions(f, RAW);
        const list = plain
          ? `SELECT DISTINCT session_id FROM metrics_sessions WHERE ${w.sql} AND calls > 0`
          : `SELECT DISTINCT session_id FROM calls ${narrowIndex(p, f, true)} WHERE ${w.sql}`;
        const r = prepare(
          `SELECT count(*) AS n, count(b) AS k, coalesce(sum(b), 0) AS b
           FROM (SELECT ${SCHEMA_OF_SESSION('@projectId', 'd.session_id')} AS b FROM (${list}) d)`,
        ).get({ ...w.params, projectId: p }) as { n: number; k: number; b: number };
        out.sessions += r.n;
        out.with_startup += r.k;
        out.schema_bytes += r.b;
      }
      return out;
    },

    /** Distinct sessions per client for the filter. */
    sessionsPerClient(f: CallFilter): Map<string, number> {
      const out = new Map<string, number>();
      for (const p of projectsOf(f)) {
        const onlyClient =
          f.from === undefined &&
          f.to === undefined &&
          f.tool === undefined &&
          f.session === undefined;
        const rows = onlyClient
          ? (() => {
              const w = conditions(f, { client: 'client_name' });
              return prepare(
                `SELECT client_name, count(*) FROM metrics_sessions WHERE ${w.sql} AND calls > 0 GROUP BY client_name`,
              )
                .raw()
                .all({ ...w.params, projectId: p }) as [string, number][];
            })()
          : (() => {
              const w = conditions(f, RAW);
              return prepare(
                `SELECT client_name, count(DISTINCT session_id) FROM calls ${narrowIndex(p, f, true)}
                 WHERE ${w.sql} GROUP BY client_name`,
              )
                .raw()
                .all({ ...w.params, projectId: p }) as [string, number][];
            })();
        for (const [c, n] of rows) out.set(c, (out.get(c) ?? 0) + n);
      }
      return out;
    },

    /** Tools of each covered project's latest startup. */
    registered(f: CallFilter): RegisteredTool[] {
      const out: RegisteredTool[] = [];
      for (const p of projectsOf(f)) {
        const s = latestStartup.get(p);
        if (!s) continue;
        for (const t of toolsOf.all(s.id)) out.push({ project_id: p, startup_id: s.id, ...t });
      }
      return out;
    },

    /** Response-size histogram rows `[tool, bucket, count, units]`. */
    sizes(f: CallFilter): [string, number, number, number][] {
      return byDays(
        f,
        (p, span) => {
          const w = rollupConditions(f, { tool: 'tool_name', client: 'client_name' }, span);
          return prepare(
            `SELECT tool_name, bucket, sum(n), sum(units) FROM metrics_sizes WHERE ${w.sql}
             GROUP BY tool_name, bucket HAVING sum(n) > 0`,
          )
            .raw()
            .all({ ...w.params, projectId: p }) as [string, number, number, number][];
        },
        (p, span) => {
          const w = conditions(f, RAW, span);
          return prepare(
            `SELECT tool_name, size_bucket, count(*), sum(response_bytes) FROM calls WHERE ${w.sql}
             GROUP BY tool_name, size_bucket`,
          )
            .raw()
            .all({ ...w.params, projectId: p }) as [string, number, number, number][];
        },
      );
    },

    /** Tool pairs A→B (A ≠ B), counted on B; `tool` matches either side. `[from, to, count]`. */
    pairs(f: CallFilter): [string, string, number][] {
      const tool = f.tool;
      const g: CallFilter = { ...f, tool: undefined };
      const toolSql = tool === undefined ? '' : ' AND (from_tool = @tool OR to_tool = @tool)';
      const rawToolSql = tool === undefined ? '' : ' AND (prev_tool = @tool OR tool_name = @tool)';
      const extra = tool === undefined ? {} : { tool };
      return byDays(
        g,
        (p, span) => {
          const w = rollupConditions(g, { client: 'client_name' }, span);
          return prepare(
            `SELECT from_tool, to_tool, sum(n) FROM metrics_pairs WHERE ${w.sql}${toolSql}
             GROUP BY from_tool, to_tool HAVING sum(n) > 0`,
          )
            .raw()
            .all({ ...w.params, ...extra, projectId: p }) as [string, string, number][];
        },
        (p, span) => {
          const w = conditions(g, RAW, span);
          return prepare(
            `SELECT prev_tool, tool_name, count(*) FROM calls WHERE ${w.sql}${rawToolSql}
               AND prev_tool IS NOT NULL AND prev_tool <> tool_name GROUP BY prev_tool, tool_name`,
          )
            .raw()
            .all({ ...w.params, ...extra, projectId: p }) as [string, string, number][];
        },
      );
    },

    /**
     * Time series rows `[bucket_start, oc, link, calls, units]` for buckets of `widthMs`
     * aligned at `offsetMs` east of UTC: whole hours from the hourly rollup when the view
     * allows (see {@link hourlyEligible}), the rest from raw calls.
     */
    series(
      f: CallFilter,
      widthMs: number,
      offsetMs: number,
    ): [number, number, number, number, number][] {
      const b = bucketSql('started_ms', widthMs, offsetMs);
      const raw = (p: number, span: Span) => {
        const w = conditions(f, RAW, span);
        return prepare(
          `SELECT ${b} AS b, ${OC_SQL()}, link, count(*), sum(response_bytes) FROM calls WHERE ${w.sql}
           GROUP BY 1, 2, 3`,
        )
          .raw()
          .all({ ...w.params, projectId: p }) as [number, number, number, number, number][];
      };
      const out: [number, number, number, number, number][] = [];
      for (const p of projectsOf(f)) {
        if (!hourlyEligible(f, widthMs, offsetMs)) {
          out.push(...raw(p, { from: f.from, to: f.to }));
          continue;
        }
        const { days: hours, edges } = splitByDay({ from: f.from, to: f.to }, HOUR_MS);
        if (hours) {
          const w = conditions({ projectId: p }, { time: 'hour_ms' }, hours);
          for (const [hr, oc, link, calls, units] of prepare(
            `SELECT hour_ms, oc, link, calls, units FROM metrics_hourly WHERE ${w.sql} AND calls > 0`,
          )
            .raw()
            .all({ ...w.params, projectId: p }) as [number, number, number, number, number][]) {
            out.push([bucketStart(hr, widthMs, offsetMs), oc, link, calls, units]);
          }
        }
        for (const e of edges) out.push(...raw(p, e));
      }
      return out;
    },

    /** First call of every session matching the filter (for "sessions started" per bucket). */
    sessionStarts(f: CallFilter): number[] {
      return projectsOf(f).flatMap((p) => {
        const plain = f.tool === undefined && f.session === undefined;
        if (plain) {
          const w = conditions(f, { client: 'client_name' });
          const rows = prepare(
            `SELECT min(first_ms) AS m FROM metrics_sessions WHERE ${w.sql} AND calls > 0 GROUP BY session_id`,
          )
            .pluck()
            .all({ ...w.params, projectId: p }) as number[];
          return rows.filter(
            (m) => (f.from === undefined || m >= f.from) && (f.to === undefined || m < f.to),
          );
        }
        // First call of each session under the other filters, then kept when in range.
        const g: CallFilter = { ...f, from: undefined, to: undefined };
        const w = conditions(g, RAW);
        const starts = prepare(
          `SELECT min(started_ms) FROM calls ${narrowIndex(p, g, true)} WHERE ${w.sql} GROUP BY session_id`,
        )
          .pluck()
          .all({ ...w.params, projectId: p }) as number[];
        return starts.filter(
          (m) => (f.from === undefined || m >= f.from) && (f.to === undefined || m < f.to),
        );
      });
    },

    /** Earliest and latest call start under the filter's project/tool/client/session. */
    extent(f: CallFilter): { first_ms: number | null; last_ms: number | null } {
      let first: number | null = null;
      let last: number | null = null;
      for (const p of projectsOf(f)) {
        const w = conditions(f, RAW);
        const params = { ...w.params, projectId: p };
        const edge = (dir: 'ASC' | 'DESC') =>
          (prepare(`SELECT started_ms FROM calls WHERE ${w.sql} ORDER BY started_ms ${dir} LIMIT 1`)
            .pluck()
            .get(params) as number | undefined) ?? null;
        const a = edge('ASC');
        const b = edge('DESC');
        if (a !== null) first = first === null ? a : Math.min(first, a);
        if (b !== null) last = last === null ? b : Math.max(last, b);
      }
      return { first_ms: first, last_ms: last };
    },

    /**
     * A page of sessions (filters select the calls counted), with the total. `q` matches a
     * session id or client name (case-insensitive substring).
     */
    sessions(
      f: CallFilter,
      opts: { q?: string; sort: SessionSort; order: 'asc' | 'desc'; limit: number; offset: number },
    ): { total: number; rows: SessionRow[] } {
      const projects = projectsOf(f);
      if (projects.length === 0) return { total: 0, rows: [] };
      const plain =
        f.from === undefined &&
        f.to === undefined &&
        f.tool === undefined &&
        f.session === undefined;
      const inList = projects.join(', ');
      const params: Params = {};
      // Per (session, client) rows from the rollup or from the matching calls; then one row
      // per session with its clients joined by U+001F (client names may hold commas).
      let perClient: string;
      if (plain) {
        const parts = [`project_id IN (${inList})`, 'calls > 0'];
        if (f.client !== undefined) {
          parts.push('client_name = @client');
          params.client = f.client;
        }
        perClient = `SELECT * FROM metrics_sessions WHERE ${parts.join(' AND ')}`;
      } else {
        const { projectId: _p, ...rest } = f;
        const w = conditions(rest, RAW);
        const sqlWhere = w.sql.replace('project_id = @projectId', `project_id IN (${inList})`);
        Object.assign(params, w.params);
        perClient = `SELECT project_id, session_id, client_name, ${SESSION_AGG_COLUMNS(OC_SQL(), HEAD_SQL())}
          FROM calls WHERE ${sqlWhere} GROUP BY project_id, session_id, client_name`;
      }
      const source = `SELECT project_id, session_id, group_concat(client_name, char(31)) AS clients,
            min(first_ms) AS first_ms, max(last_ms) AS last_ms, max(last_end_ms) AS last_end_ms,
            sum(calls) AS calls, sum(ok) AS ok, sum(empty) AS empty, sum(bad_args) AS bad_args,
            sum(tool_error) AS tool_error, sum(crashed) AS crashed, sum(fcs) AS fcs,
            sum(retries) AS retries, sum(repeats) AS repeats, sum(unknown_links) AS unknown_links,
            sum(chains) AS chains, sum(units) AS units, sum(duration) AS duration, sum(slow) AS slow
          FROM (${perClient}) GROUP BY project_id, session_id`;
      const search = opts.q?.trim();
      let having = '';
      if (search) {
        having = `WHERE instr(lower(session_id), @q) > 0 OR instr(lower(clients), @q) > 0`;
        params.q = search.toLowerCase();
      }
      const needsSchema = opts.sort === 'cost';
      const schemaCol = needsSchema
        ? `, ${SCHEMA_OF_SESSION('s.project_id', 's.session_id')} AS schema_bytes`
        : '';
      const dir = opts.order === 'asc' ? 'ASC' : 'DESC';
      const sql = `WITH s AS (${source}), v AS (SELECT s.*${schemaCol} FROM s ${having})
        SELECT *, count(*) OVER () AS total FROM v
        ORDER BY ${SESSION_SORT_SQL[opts.sort]} ${dir}, session_id ${dir} LIMIT @limit OFFSET @offset`;
      const rows = all<Omit<SessionRow, 'clients'> & { clients: string; total: number }>(sql, {
        ...params,
        limit: opts.limit,
        offset: opts.offset,
      });
      const total =
        rows[0]?.total ??
        (opts.offset > 0
          ? (all<{ n: number }>(
              `WITH s AS (${source}) SELECT count(*) AS n FROM s ${having}`,
              params,
            )[0]?.n ?? 0)
          : 0);
      const schema = prepare(`SELECT ${SCHEMA_OF_SESSION('@p', '@s')} AS b`).pluck();
      return {
        total,
        rows: rows.map(({ total: _t, ...r }) => ({
          ...r,
          clients: r.clients.split('\u001f').sort(),
          schema_bytes: needsSchema
            ? r.schema_bytes
            : ((schema.get({ p: r.project_id, s: r.session_id }) as number | null) ?? null),
        })),
      };
    },

    /** Which project holds a session (the most recently active when several do). */
    sessionProject(session: string, projectId?: number): number | undefined {
      fresh();
      if (projectId !== undefined) {
        const hit = prepare(
          'SELECT 1 FROM metrics_sessions WHERE project_id = ? AND session_id = ? LIMIT 1',
        ).get(projectId, session);
        return hit ? projectId : undefined;
      }
      return (
        (prepare(
          'SELECT project_id FROM metrics_sessions WHERE session_id = ? ORDER BY last_ms DESC LIMIT 1',
        )
          .pluck()
          .get(session) as number | undefined) ?? undefined
      );
    },

    /** Every call of one session in session order, with stored facts. */
    sessionCalls(projectId: number, session: string): FactRow[] {
      fresh();
      return all<FactRow>(
        `SELECT ${CALL_COLUMNS} FROM calls INDEXED BY calls_by_session
         WHERE project_id = @p AND session_id = @s ORDER BY started_ms, id`,
        { p: projectId, s: session },
      );
    },

    /** Startups of one session, oldest first, with their tools. */
    sessionStartups(projectId: number, session: string) {
      const rows = all<{ id: number; client_name: string; received_ms: number }>(
        `SELECT id, client_name, received_ms FROM startups WHERE project_id = @p AND session_id = @s ORDER BY id`,
        { p: projectId, s: session },
      );
      return rows.map((r) => ({ ...r, tools: toolsOf.all(r.id) }));
    },

    /**
     * Retry chains whose first call matches the filter (time, client and tool of the first
     * call), newest first: the total, the resolved count, per-tool counts, and the page's
     * chains with every member call in session order.
     */
    chains(
      f: CallFilter,
      opts: { resolved?: boolean; limit: number; offset: number },
    ): {
      total: number;
      resolved: number;
      byTool: [string, number, number][];
      rows: ChainRow[];
      members: FactRow[];
    } {
      let total = 0;
      let resolved = 0;
      const byTool = new Map<string, [number, number]>();
      const rows: ChainRow[] = [];
      const res = opts.resolved === undefined ? '' : ` AND resolved = ${opts.resolved ? 1 : 0}`;
      for (const p of projectsOf(f)) {
        const w = conditions(f, {
          time: 'first_ms',
          tool: 'tool_name',
          client: 'client_name',
          session: 'session_id',
        });
        const params = { ...w.params, projectId: p };
        for (const [tool, n, r] of prepare(
          `SELECT tool_name, count(*), sum(resolved) FROM metrics_chains WHERE ${w.sql}${res} GROUP BY tool_name`,
        )
          .raw()
          .all(params) as [string, number, number][]) {
          total += n;
          resolved += r;
          const e = byTool.get(tool) ?? [0, 0];
          byTool.set(tool, [e[0] + n, e[1] + r]);
        }
        rows.push(
          ...all<ChainRow>(
            `SELECT * FROM metrics_chains WHERE ${w.sql}${res} ORDER BY first_ms DESC, run_id DESC LIMIT @lim`,
            { ...params, lim: opts.limit + opts.offset },
          ),
        );
      }
      rows.sort((a, b) => b.first_ms - a.first_ms || b.run_id - a.run_id);
      const page = rows.slice(opts.offset, opts.offset + opts.limit);
      const member = prepare(
        `SELECT ${CALL_COLUMNS} FROM calls INDEXED BY calls_chain_members
         WHERE run_id = ? AND chain = 1 ORDER BY started_ms, id`,
      );
      const members = page.flatMap((c) => member.all(c.run_id) as FactRow[]);
      return {
        total,
        resolved,
        byTool: [...byTool.entries()].map(([t, [n, r]]) => [t, n, r]),
        rows: page,
        members,
      };
    },

    /** Exact `[duration_ms, count]` histogram of one tool's calls under the filter. */
    toolDurations(f: CallFilter & { tool: string }): [number, number][] {
      const parts = projectsOf(f).map((p) => {
        const w = conditions(f, RAW);
        const index = f.session === undefined ? 'INDEXED BY calls_by_tool_duration' : '';
        return prepare(
          `SELECT duration_ms, count(*) FROM calls ${index} WHERE ${w.sql} GROUP BY duration_ms`,
        )
          .raw()
          .all({ ...w.params, projectId: p }) as [number, number][];
      });
      return mergeHistograms(parts);
    },

    /**
     * Calls matching the filter plus metric conditions (the calls behind a number), newest
     * first, keyset-paged by `before` (a call id).
     */
    calls(
      f: CallFilter,
      where: { sql: string; params: Params },
      page: { limit: number; before?: { ms: number; id: number } },
    ): FactRow[] {
      const out: FactRow[] = [];
      for (const p of projectsOf(f)) {
        const w = conditions(f, RAW);
        const before = page.before
          ? ' AND started_ms <= @bms AND (started_ms < @bms OR id < @bid)'
          : '';
        out.push(
          ...all<FactRow>(
            `SELECT ${CALL_COLUMNS} FROM calls WHERE ${w.sql}${where.sql ? ` AND ${where.sql}` : ''}${before}
             ORDER BY started_ms DESC, id DESC LIMIT @limit`,
            {
              ...w.params,
              ...where.params,
              projectId: p,
              limit: page.limit,
              ...(page.before ? { bms: page.before.ms, bid: page.before.id } : {}),
            },
          ),
        );
      }
      return out.sort((a, b) => b.started_ms - a.started_ms || b.id - a.id).slice(0, page.limit);
    },

    /** A stored JSON setting. */
    getSetting(key: string): unknown {
      const v = prepare('SELECT value FROM settings WHERE key = ?').pluck().get(key) as
        string | undefined;
      return v === undefined ? undefined : (JSON.parse(v) as unknown);
    },

    setSetting(key: string, value: unknown): void {
      prepare(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ).run(key, JSON.stringify(value));
    },

    /** For tests and the bench: make every fact and rollup exact from raw calls. */
    rebuildAll(): void {
      if (!maintainer) throw new Error('store opened read-only');
      db.transaction(() => maintainer.rebuildAll())();
    },
  };
}

export type MetricsQueries = ReturnType<typeof createMetricsQueries>;

const cache = new WeakMap<Database.Database, MetricsQueries>();

/** The metrics queries of a store's connection (prepared once per connection). */
export function metricsOf(store: { db: Database.Database }): MetricsQueries {
  let q = cache.get(store.db);
  if (!q) cache.set(store.db, (q = createMetricsQueries(store.db, store.db.readonly)));
  return q;
}
