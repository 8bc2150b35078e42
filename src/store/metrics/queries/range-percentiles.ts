/**
 * Exact percentiles and the duration histogram of a time range, without reading the calls in
 * it: the range's whole days and hours come from the fine latency rollups by day and by hour
 * (where each rank falls), its partial hours from raw calls, and only the durations inside the
 * one fine bucket holding a rank are read exactly, through `calls_by_tool_duration`.
 */
import { fineBucket, fineBucketRange, mergeHistograms } from '../../../metrics/latency.js';
import { sizeBucket, sizeHistogram, type SizeBucketCount } from '../../../metrics/sizes.js';
import { splitByHours, type Span } from '../../../metrics/time.js';
import type { CallFilter } from '../../../shared/rows.js';
import type { QueryContext } from './context.js';
import { NO_PERCENTILES, pick, type Percentiles } from './exact-percentiles.js';

/** A range's exact percentiles, overall and per tool, and its duration histogram. */
export interface RangePercentiles {
  overall: Percentiles;
  byTool: Map<string, Percentiles>;
  /** The view's log-bucket duration histogram (counts and duration sums), exact. */
  histogram: () => SizeBucketCount[];
}

/** `[count, duration sum]` per fine bucket. */
type Fine = Map<number, [number, number]>;

/**
 * Reading one duration value's calls in a time range is an index seek; walking a fine
 * bucket's calls of all time costs per entry. Measured on the 10M-call bench data: a seek
 * costs about as much as this many walked entries, so the cheaper read is chosen per bucket.
 */
const SEEK_COST_IN_ENTRIES = 8;

const MIN_MS = -Number.MAX_SAFE_INTEGER;
const MAX_MS = Number.MAX_SAFE_INTEGER;

/**
 * Reads one tool's calls inside one fine bucket and a time span exactly, as
 * `[key, duration, count]` grouped by `keySql` (a bucket expression over `started_ms`; one
 * group by default): every duration value of the bucket sought in the span (a recursive CTE
 * drives the seeks), or the bucket's entries of all time (`entries` of them) walked, whichever
 * costs less.
 */
export function fineBucketReader(ctx: QueryContext) {
  const { prepare } = ctx;
  return (
    p: number,
    tool: string,
    bucket: number,
    span: Span,
    entries: number,
    keySql = '0',
  ): [number, number, number][] => {
    const [lo, hi] = fineBucketRange(bucket);
    const seek = (hi - lo) * SEEK_COST_IN_ENTRIES < entries;
    const sql = seek
      ? `WITH RECURSIVE v(d) AS (VALUES (@lo) UNION ALL SELECT d + 1 FROM v WHERE d + 1 < @hi)
         SELECT ${keySql.replaceAll('started_ms', 'c.started_ms')}, c.duration_ms, count(*)
         FROM v CROSS JOIN calls c INDEXED BY calls_by_tool_duration
         WHERE c.project_id = @p AND c.tool_name = @tool AND c.duration_ms = v.d
           AND c.started_ms >= @from AND c.started_ms < @to
         GROUP BY 1, 2`
      : `SELECT ${keySql}, duration_ms, count(*) FROM calls INDEXED BY calls_by_tool_duration
         WHERE project_id = @p AND tool_name = @tool AND duration_ms >= @lo AND duration_ms < @hi
           AND started_ms >= @from AND started_ms < @to
         GROUP BY 1, 2`;
    return prepare(sql)
      .raw()
      .all({ p, tool, lo, hi, from: span.from ?? MIN_MS, to: span.to ?? MAX_MS }) as [
      number,
      number,
      number,
    ][];
  };
}

/** One project's share of a range. */
interface Part {
  p: number;
  /** Whole hours of the range, read from the rollups (null: none). */
  whole: Span | null;
  /** Rollup counts per tool and fine bucket over `whole`. */
  fine: Map<string, Fine>;
  /** Exact `[duration, count]` per tool in the partial hours. */
  raw: Map<string, [number, number][]>;
  /** All-time count per tool and fine bucket: what walking a bucket would cost. */
  allTime: Map<string, Map<number, number>>;
}

/** Range percentile queries on one connection. */
export function rangePercentileQueries(ctx: QueryContext) {
  const { prepare } = ctx;

  /** Adds `[bucket, n, ms]` rows into a tool's fine map. */
  const addFine = (into: Map<string, Fine>, tool: string, rows: [number, number, number][]) => {
    const m = into.get(tool) ?? new Map<number, [number, number]>();
    for (const [b, n, ms] of rows) {
      const e = m.get(b);
      if (e) {
        e[0] += n;
        e[1] += ms;
      } else m.set(b, [n, ms]);
    }
    into.set(tool, m);
  };

  /** Reads one project's rollup counts, all-time counts and raw partial hours. */
  function partOf(p: number, f: CallFilter): Part {
    const { whole, days, hours, partial } = splitByHours({ from: f.from, to: f.to });
    const allTime = new Map<string, Map<number, number>>();
    const allRows = prepare(
      `SELECT tool_name, bucket, n FROM metrics_latency
       WHERE project_id = ? AND tool_name <> '' AND n > 0`,
    )
      .raw()
      .all(p) as [string, number, number][];
    for (const [t, b, n] of allRows) {
      if (f.tool !== undefined && t !== f.tool) continue;
      const m = allTime.get(t) ?? new Map<number, number>();
      m.set(b, n);
      allTime.set(t, m);
    }
    const fine = new Map<string, Fine>();
    const byDay = prepare(
      `SELECT bucket, sum(n), sum(ms) FROM metrics_latency_days
       WHERE project_id = ? AND tool_name = ? AND day_ms >= ? AND day_ms < ? AND n > 0 GROUP BY bucket`,
    ).raw();
    const byHour = prepare(
      `SELECT bucket, sum(n), sum(ms) FROM metrics_latency_hours
       WHERE project_id = ? AND tool_name = ? AND hour_ms >= ? AND hour_ms < ? AND n > 0 GROUP BY bucket`,
    ).raw();
    for (const tool of allTime.keys()) {
      if (days)
        addFine(fine, tool, byDay.all(p, tool, days.from ?? MIN_MS, days.to ?? MAX_MS) as never);
      for (const h of hours)
        addFine(fine, tool, byHour.all(p, tool, h.from ?? MIN_MS, h.to ?? MAX_MS) as never);
    }
    const raw = new Map<string, [number, number][]>();
    const rawRows = prepare(
      `SELECT tool_name, duration_ms, count(*) FROM calls INDEXED BY calls_by_time
       WHERE project_id = @p AND started_ms >= @from AND started_ms < @to
         ${f.tool !== undefined ? 'AND tool_name = @tool' : ''}
       GROUP BY 1, 2`,
    ).raw();
    for (const e of partial) {
      const params = { p, from: e.from ?? MIN_MS, to: e.to ?? MAX_MS, tool: f.tool };
      if (f.tool === undefined) delete params.tool;
      for (const [t, d, n] of rawRows.all(params) as [string, number, number][]) {
        const list = raw.get(t) ?? [];
        list.push([d, n]);
        raw.set(t, list);
      }
    }
    return { p, whole, fine, raw, allTime };
  }

  const read = fineBucketReader(ctx);

  /** Exact `[duration, count]` of one tool's calls in a fine bucket: raw, then whole hours. */
  function exactIn(part: Part, tool: string, bucket: number): [number, number][] {
    const out: [number, number][] = [];
    const [lo, hi] = fineBucketRange(bucket);
    for (const [d, n] of part.raw.get(tool) ?? []) if (d >= lo && d < hi) out.push([d, n]);
    const inRollup = part.fine.get(tool)?.get(bucket)?.[0] ?? 0;
    if (part.whole && inRollup > 0) {
      const entries = part.allTime.get(tool)?.get(bucket) ?? 0;
      for (const [, d, n] of read(part.p, tool, bucket, part.whole, entries)) out.push([d, n]);
    }
    return out;
  }

  /** `[bucket, count]` sorted, of the given tools' rollup counts and raw values. */
  function fineHistogram(parts: Part[], tools: readonly string[]): [number, number][] {
    const acc = new Map<number, number>();
    for (const part of parts)
      for (const t of tools) {
        for (const [b, [n]] of part.fine.get(t) ?? []) acc.set(b, (acc.get(b) ?? 0) + n);
        for (const [d, n] of part.raw.get(t) ?? [])
          acc.set(fineBucket(d), (acc.get(fineBucket(d)) ?? 0) + n);
      }
    return [...acc.entries()].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  }

  /** Exact percentiles of the given tools together. */
  function percentilesOf(parts: Part[], tools: readonly string[]): Percentiles {
    return pick(fineHistogram(parts, tools), (lo) => {
      const b = fineBucket(lo);
      return mergeHistograms(parts.flatMap((part) => tools.map((t) => exactIn(part, t, b))));
    });
  }

  /**
   * The log-bucket histogram: a fine bucket that lies inside one log bucket adds its count and
   * duration sum as kept; one that straddles a log edge is read exactly; raw values add as is.
   */
  function histogramOf(parts: Part[], tools: readonly string[]): SizeBucketCount[] {
    const m = new Map<number, { count: number; units: number }>();
    const add = (v: number, n: number, units: number) => {
      const b = sizeBucket(v);
      const e = m.get(b) ?? { count: 0, units: 0 };
      m.set(b, { count: e.count + n, units: e.units + units });
    };
    for (const part of parts)
      for (const t of tools) {
        for (const [d, n] of part.raw.get(t) ?? []) add(d, n, d * n);
        for (const [b, [n, ms]] of part.fine.get(t) ?? []) {
          if (n <= 0) continue;
          const [lo, hi] = fineBucketRange(b);
          if (sizeBucket(lo) === sizeBucket(hi - 1)) {
            add(lo, n, ms);
            continue;
          }
          const rollupOnly: Part = { ...part, raw: new Map() };
          for (const [d, k] of exactIn(rollupOnly, t, b)) add(d, k, d * k);
        }
      }
    return sizeHistogram(m);
  }

  return {
    /**
     * Exact percentiles of a time-bounded view without a client or session filter, overall
     * and per tool, and its duration histogram (read only when asked for).
     */
    rangePercentiles(projects: number[], f: CallFilter): RangePercentiles {
      const parts = projects.map((p) => partOf(p, f));
      const tools = [...new Set(parts.flatMap((part) => [...part.allTime.keys()]))].sort();
      const byTool = new Map<string, Percentiles>();
      for (const t of tools) {
        const hist = fineHistogram(parts, [t]);
        if (hist.length > 0) byTool.set(t, percentilesOf(parts, [t]));
      }
      const overall =
        f.tool !== undefined ? (byTool.get(f.tool) ?? NO_PERCENTILES) : percentilesOf(parts, tools);
      return { overall, byTool, histogram: () => histogramOf(parts, tools) };
    },
  };
}
