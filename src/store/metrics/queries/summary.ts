/** Summary queries: additive stat rows and exact percentiles, overall and per tool. */
import type { StatRow } from '../../../metrics/aggregate.js';
import {
  fineBucket,
  mergeHistograms,
  percentiles as percentilesOf,
} from '../../../metrics/latency.js';
import { logHistogramOfCounts } from '../../../metrics/report/histograms.js';
import type { SizeBucketCount } from '../../../metrics/sizes.js';
import { splitByHours, type Span } from '../../../metrics/time.js';
import type { CallFilter } from '../../../shared/rows.js';
import { HEAD_SQL, LATENCY_SUMS_SQL, OC_SQL } from '../sql.js';
import type { QueryContext } from './context.js';
import { NO_PERCENTILES, pick, type Percentiles } from './exact-percentiles.js';
import { exactDurationReader } from './exact-durations.js';
import { rangePercentileQueries } from './range-percentiles.js';
import { conditions, hourStatsIndex, RAW, rollupConditions, type Params } from './sql-parts.js';

/** A view's exact percentiles, overall and per tool, and its duration histogram on demand. */
export interface ViewPercentiles {
  overall: Percentiles;
  byTool: Map<string, Percentiles>;
  /** The view's exact log-bucket duration histogram (counts and duration sums). */
  histogram: () => SizeBucketCount[];
}

/** The summed columns of a stat row. */
const STAT_SUMS = ['calls', 'units', 'duration', 'l0', 'l1', 'l2', 'l3'] as const;

/** The projects holding any bucket of `tool` (keys `tool\0bucket`). */
function holdersOfTool(holders: Map<string, number[]>, tool: string): number[] {
  const prefix = `${tool}\u0000`;
  return [...holders].flatMap(([key, ps]) => (key.startsWith(prefix) ? ps : []));
}

/** Stat rows and percentiles for a filter. */
export function summaryQueries(ctx: QueryContext) {
  const { prepare, projectsOf, callsOf, byHours } = ctx;
  const { rangePercentiles } = rangePercentileQueries(ctx);
  const readers = exactDurationReader(ctx);
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

  /** Stat rows from the hourly rollup for whole hours in `span`. */
  function hourStats(p: number, f: CallFilter, span: Span): StatRow[] {
    const w = conditions(f, { time: 'hour_ms', tool: 'tool_name', client: 'client_name' }, span);
    return statRows(
      `SELECT tool_name, client_name, oc, link, head, sum(calls), sum(units), sum(duration),
              sum(l0), sum(l1), sum(l2), sum(l3)
       FROM metrics_hour_stats ${hourStatsIndex(f)} WHERE ${w.sql}
       GROUP BY 1, 2, 3, 4, 5 HAVING sum(calls) > 0`,
      { ...w.params, projectId: p },
    );
  }

  /** The rows taken away instead of added. */
  function negated(rows: StatRow[]): StatRow[] {
    for (const r of rows) for (const k of STAT_SUMS) r[k] = -r[k];
    return rows;
  }

  /** One row per key, the signed rows of days and hours added up; keys left with no call go. */
  function mergeStatRows(rows: StatRow[]): StatRow[] {
    const byKey = new Map<string, StatRow>();
    for (const r of rows) {
      const k = `${r.tool}\u0000${r.client}\u0000${r.oc}\u0000${r.link}\u0000${r.head}`;
      const e = byKey.get(k);
      if (!e) byKey.set(k, { ...r });
      else for (const c of STAT_SUMS) e[c] += r[c];
    }
    return [...byKey.values()].filter((r) => r.calls !== 0);
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
  /** Exact percentiles by counting the matching calls' durations (any filter). */
  function exactPercentiles(projects: number[], f: CallFilter): ViewPercentiles {
    const perTool = new Map<string, [number, number][]>();
    for (const p of projects) {
      const w = conditions(f, RAW);
      const rows = prepare(
        `SELECT tool_name, duration_ms, count(*) FROM ${callsOf(p, f)} WHERE ${w.sql} GROUP BY 1, 2`,
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
    const overall = mergeHistograms(perTool.values());
    return {
      overall: percentilesOf(overall),
      byTool,
      histogram: () => logHistogramOfCounts(overall),
    };
  }

  /**
   * The fast path's exact `[duration_ms, count]` histogram of the whole view: rows per
   * distinct duration, never the calls — the durations rollup for all tools, the daily one
   * summed over the tool's days for one tool.
   */
  function rollupDurations(projects: number[], tool: string | undefined): [number, number][] {
    if (tool !== undefined) {
      const one = prepare(
        `SELECT duration_ms, sum(n) FROM metrics_duration_days
         WHERE project_id = ? AND tool_name = ? AND n > 0 GROUP BY duration_ms`,
      ).raw();
      return mergeHistograms(projects.map((p) => one.all(p, tool) as [number, number][]));
    }
    if (projects.length > 1)
      // Every project at once: one pass over the rollup, not one read per project.
      return prepare(
        `SELECT duration_ms, sum(n) FROM metrics_durations
         WHERE project_id IN (SELECT value FROM json_each(?)) AND n > 0
         GROUP BY duration_ms ORDER BY duration_ms`,
      )
        .raw()
        .all(JSON.stringify(projects)) as [number, number][];
    const all = prepare(
      `SELECT duration_ms, n FROM metrics_durations WHERE project_id = ? AND n > 0`,
    ).raw();
    return mergeHistograms(projects.map((p) => all.all(p) as [number, number][]));
  }

  /**
   * The all-time latency rollup of a view's projects in one read: each tool's fine histogram,
   * the all-tools one, and which projects hold each (tool, bucket) — keyed `tool\0bucket`, the
   * all-tools rows under the empty tool.
   */
  function latencyRows(f: CallFilter) {
    const where = [
      'n > 0',
      ...(f.projectId !== undefined ? ['project_id = @projectId'] : []),
      ...(f.tool !== undefined ? ["tool_name IN (@tool, '')"] : []),
    ].join(' AND ');
    const rows = prepare(
      `SELECT project_id, tool_name, bucket, n FROM metrics_latency WHERE ${where}`,
    )
      .raw()
      .all({ projectId: f.projectId, tool: f.tool }) as [number, string, number, number][];
    const fine = new Map<string, [number, number][]>();
    const overallFine: [number, number][] = [];
    const holders = new Map<string, number[]>();
    for (const [p, tool, bucket, n] of rows) {
      if (tool === '') overallFine.push([bucket, n]);
      else {
        const list = fine.get(tool) ?? [];
        list.push([bucket, n]);
        fine.set(tool, list);
      }
      const key = `${tool}\u0000${bucket}`;
      const list = holders.get(key) ?? [];
      list.push(p);
      holders.set(key, list);
    }
    return { fine, overallFine, holders };
  }

  return {
    /** Additive stat rows (tool × client × outcome class × link × chain head) for a filter. */
    stats(f: CallFilter): StatRow[] {
      return mergeStatRows(
        byHours(f, {
          days: (p, span) => dailyStats(p, f, span),
          hours: (p, span) => hourStats(p, f, span),
          minus: (p, span) => negated(hourStats(p, f, span)),
          raw: (p, span) => rawStats(p, f, span),
          minusRaw: (p, span) => negated(rawStats(p, f, span)),
        }),
      );
    },

    /**
     * Exact p50/p95/p99, overall and per tool. All-time views (no time, client or session
     * filter) find the fine bucket holding each rank in the latency rollup, then read only that
     * bucket's durations; time ranges do the same over the rollups by day and by hour (plus
     * the partial hours' raw calls, ./range-percentiles.ts); any other view counts the
     * matching calls' durations exactly. `histogram()` is the view's exact log-bucket duration
     * histogram, read only when asked for.
     */
    percentiles(f: CallFilter): ViewPercentiles {
      const projects = projectsOf(f);
      const fast =
        f.from === undefined &&
        f.to === undefined &&
        f.client === undefined &&
        f.session === undefined;
      // A time range (without client or session) reads the rollups by day and by hour.
      const ranged = f.client === undefined && f.session === undefined;
      if (!fast && ranged && splitByHours({ from: f.from, to: f.to }).whole)
        return rangePercentiles(projects, f);
      if (!fast) return exactPercentiles(projects, f);
      // One read of the latency rollup for every project the view covers (not one per
      // project: with thousands of one-call projects those reads were the summary's cost),
      // remembering which projects hold each tool's fine bucket: only they are read exactly.
      const { fine, overallFine, holders } = latencyRows(f);
      const byTool = new Map<string, Percentiles>();
      const exactIn = readers();
      for (const [tool, list] of fine) {
        byTool.set(
          tool,
          pick(mergeHistograms([list]), (lo) =>
            (holders.get(`${tool}\u0000${fineBucket(lo)}`) ?? []).flatMap((p) =>
              exactIn(p, tool, fineBucket(lo), [{}]).map(([, d, n]): [number, number] => [d, n]),
            ),
          ),
        );
      }
      const withTool = (tool: string | undefined): number[] =>
        tool === undefined ? projects : [...new Set(holdersOfTool(holders, tool))];
      const histogram = () => logHistogramOfCounts(rollupDurations(withTool(f.tool), f.tool));
      if (f.tool !== undefined)
        return { overall: byTool.get(f.tool) ?? NO_PERCENTILES, byTool, histogram };
      const exact = prepare(
        `SELECT duration_ms, n FROM metrics_durations WHERE project_id = ? AND duration_ms >= ? AND duration_ms < ? AND n > 0`,
      ).raw();
      const overall = pick(mergeHistograms([overallFine]), (lo, hi) =>
        (holders.get(`\u0000${fineBucket(lo)}`) ?? []).flatMap(
          (p) => exact.all(p, lo, hi) as [number, number][],
        ),
      );
      return { overall, byTool, histogram };
    },
  };
}
