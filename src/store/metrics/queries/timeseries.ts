/** Time series queries: buckets of calls, exact p95 per bucket, sessions started, the extent. */
import { HOUR_MS } from '../../../shared/metric-constants.js';
import {
  fineBucket,
  fineBucketRange,
  locateRank,
  mergeHistograms,
  valueAtRank,
} from '../../../metrics/latency.js';
import { bucketStart, splitByDay, type Span } from '../../../metrics/time.js';
import type { CallFilter } from '../../../shared/rows.js';
import { OC_SQL } from '../sql.js';
import type { QueryContext } from './context.js';
import { exactDurationReader } from './exact-durations.js';
import { isOneTool } from './tool-calls.js';
import { toolTimelineQueries } from './tool-timeline.js';
import { bucketSql, conditions, hourStatsIndex, RAW } from './sql-parts.js';

/**
 * Whether hourly rollups can answer a series: buckets of whole hours at a whole-hour offset,
 * without a session filter (the hourly stat rows name each tool and client). Minute buckets
 * never can: they always read raw calls (the route bounds how many).
 */
const hourlyEligible = (f: CallFilter, widthMs: number, offsetMs: number): boolean =>
  f.session === undefined && widthMs % HOUR_MS === 0 && offsetMs % HOUR_MS === 0;

/** …and the p95 series, whose hourly latency rows name each tool, but not the client. */
const hourlyP95Eligible = (f: CallFilter, widthMs: number, offsetMs: number): boolean =>
  f.client === undefined && hourlyEligible(f, widthMs, offsetMs);

/** Time series of a filter. */
export function timeseriesQueries(ctx: QueryContext) {
  const { prepare, projectsOf, callsOf, rawCalls } = ctx;
  const readers = exactDurationReader(ctx);
  const { toolEdge, toolSessionStarts } = toolTimelineQueries(ctx);
  /** Each tool with calls (of all time) in a fine bucket. */
  const toolsIn = (p: number, bucket: number) =>
    prepare(
      `SELECT tool_name FROM metrics_latency
       WHERE project_id = ? AND bucket = ? AND tool_name <> '' AND n > 0`,
    )
      .pluck()
      .all(p, bucket) as string[];
  return {
    /**
     * Time series rows `[bucket_start, oc, link, calls, units]` for buckets of `widthMs`
     * aligned at `offsetMs` east of UTC: whole hours from the hourly rollups when the view
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
          `SELECT ${b} AS b, ${OC_SQL()}, link, count(*), sum(response_bytes) FROM ${rawCalls(f, span)} WHERE ${w.sql}
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
          // All calls by hour, or one tool's or client's from the stat rows by hour.
          const plain = f.tool === undefined && f.client === undefined;
          const w = conditions(
            { ...f, projectId: p },
            { time: 'hour_ms', tool: 'tool_name', client: 'client_name' },
            hours,
          );
          for (const [hr, oc, link, calls, units] of prepare(
            plain
              ? `SELECT hour_ms, oc, link, calls, units FROM metrics_hourly WHERE ${w.sql} AND calls > 0`
              : `SELECT hour_ms, oc, link, sum(calls), sum(units) FROM metrics_hour_stats
                 ${hourStatsIndex(f)}
                 WHERE ${w.sql} AND calls > 0 GROUP BY 1, 2, 3`,
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

    /**
     * First call of every session matching the filter (for "sessions started" per bucket). With
     * `grain` (buckets of `widthMs` aligned at `offsetMs`), one tool's sessions whose first hour
     * of the tool lies in one bucket and wholly in or out of the range are given as that hour's
     * start, which counts in the same bucket: only the others are looked up call by call.
     */
    sessionStarts(f: CallFilter, grain?: { widthMs: number; offsetMs: number }): number[] {
      return projectsOf(f).flatMap((p) => {
        if (isOneTool(f)) return toolSessionStarts(p, f, grain);
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
          `SELECT min(started_ms) FROM ${callsOf(p, g, g, true)} WHERE ${w.sql} GROUP BY session_id`,
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
          isOneTool(f)
            ? toolEdge(p, f, dir)
            : ((prepare(
                `SELECT started_ms FROM calls WHERE ${w.sql} ORDER BY started_ms ${dir} LIMIT 1`,
              )
                .pluck()
                .get(params) as number | undefined) ?? null);
        const a = edge('ASC');
        const b = edge('DESC');
        if (a !== null) first = first === null ? a : Math.min(first, a);
        if (b !== null) last = last === null ? b : Math.max(last, b);
      }
      return { first_ms: first, last_ms: last };
    },

    /** How many calls match the filter (its range included). */
    callCount(f: CallFilter): number {
      let n = 0;
      for (const p of projectsOf(f)) {
        const w = conditions(f, RAW);
        n += prepare(`SELECT count(*) FROM ${rawCalls(f)} WHERE ${w.sql}`)
          .pluck()
          .get({ ...w.params, projectId: p }) as number;
      }
      return n;
    },

    /**
     * Exact p95 per time bucket (`widthMs` aligned at `offsetMs` east of UTC). Without client
     * or session filters and for whole-hour offsets, whole hours come from the fine latency
     * rollup by hour (all tools, or the one tool): it locates each bucket's p95 rank; the
     * buckets whose rank falls in the same fine bucket then read that bucket's exact durations
     * together, for every tool (or the one) at once, from the durations rollups
     * (./exact-durations.ts), each under its time bucket. Partial hours, and any other view,
     * count the matching calls directly.
     */
    seriesP95(f: CallFilter, widthMs: number, offsetMs: number): Map<number, number> {
      const out = new Map<number, number>();
      const projects = projectsOf(f);
      const rawSpans: Span[] = [];
      const fine = new Map<number, Map<number, number>>();
      const edgeValues = new Map<number, [number, number][]>();
      let hours: Span | null = null;
      if (hourlyP95Eligible(f, widthMs, offsetMs)) {
        const split = splitByDay({ from: f.from, to: f.to }, HOUR_MS);
        hours = split.days;
        rawSpans.push(...split.edges);
        if (hours) {
          for (const p of projects) {
            // All tools' rows ('') or the one tool's.
            const w = conditions({ projectId: p }, { time: 'hour_ms' }, hours);
            for (const [hr, b, n] of prepare(
              `SELECT hour_ms, bucket, n FROM metrics_latency_hours
               WHERE ${w.sql} AND tool_name = @tool AND n > 0`,
            )
              .raw()
              .all({ ...w.params, projectId: p, tool: f.tool ?? '' }) as [
              number,
              number,
              number,
            ][]) {
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
            `SELECT ${b} AS b, duration_ms, count(*) FROM ${callsOf(p, f, span)}
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
      // Where each time bucket's p95 rank falls.
      const ranks = new Map<number, { bucket: number; rank: number }>();
      for (const k of new Set([...fine.keys(), ...edgeValues.keys()])) {
        const counts = new Map(fine.get(k) ?? []);
        for (const [d, n] of edgeValues.get(k) ?? [])
          counts.set(fineBucket(d), (counts.get(fineBucket(d)) ?? 0) + n);
        const at = locateRank(
          [...counts.entries()].sort((x, y) => x[0] - y[0]),
          0.95,
        );
        if (at) ranks.set(k, at);
      }
      // The time buckets sharing a rank's fine bucket read its rollup-side calls at once.
      const byFine = new Map<number, number[]>();
      for (const [k, at] of ranks) {
        if (!fine.get(k)?.has(at.bucket)) continue;
        byFine.set(at.bucket, [...(byFine.get(at.bucket) ?? []), k]);
      }
      const rollupValues = new Map<number, [number, number][]>();
      // Each time bucket's whole hours inside the rollup span, under its own key.
      const readFine = readers();
      for (const [bucket, keys] of byFine) {
        const spans = keys.map((k) => ({
          from: Math.max(k, hours!.from ?? -Infinity),
          to: Math.min(k + widthMs, hours!.to ?? Infinity),
          key: k,
        }));
        for (const p of projects)
          for (const [k, d, n] of readFine(
            p,
            f.tool !== undefined ? [f.tool] : toolsIn(p, bucket),
            bucket,
            spans,
          )) {
            const list = rollupValues.get(k) ?? [];
            list.push([d, n]);
            rollupValues.set(k, list);
          }
      }
      for (const [k, at] of ranks) {
        const [lo, hi] = fineBucketRange(at.bucket);
        const values = mergeHistograms([
          (edgeValues.get(k) ?? []).filter(([d]) => d >= lo && d < hi),
          rollupValues.get(k) ?? [],
        ]);
        const v = valueAtRank(values, at.rank);
        if (v !== null) out.set(k, v);
      }
      return out;
    },
  };
}
