/**
 * Exact percentiles and the duration histogram of a time range, without reading the calls in
 * it: the range's whole days and hours come from the fine latency rollups by day and by hour
 * (where each rank falls), its partial hours from raw calls, and only the durations inside the
 * one fine bucket holding a rank are read exactly, from the durations rollups by day and hour.
 */
import { fineBucket, fineBucketRange, mergeHistograms } from '../../../metrics/latency.js';
import { sizeBucket, sizeHistogram, type SizeBucketCount } from '../../../metrics/sizes.js';
import { splitAdditive, type Span } from '../../../metrics/time.js';
import type { CallFilter } from '../../../shared/rows.js';
import type { QueryContext } from './context.js';
import { exactDurationReader, type ExactDurations } from './exact-durations.js';
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

const MIN_MS = -Number.MAX_SAFE_INTEGER;
const MAX_MS = Number.MAX_SAFE_INTEGER;

/** One project's share of a range. */
interface Part {
  p: number;
  /** Whole hours of the range, read from the rollups (null: none). */
  whole: Span | null;
  /** Rollup counts per tool and fine bucket over `whole`. */
  fine: Map<string, Fine>;
  /** Exact `[duration, count]` per tool in the parts of hours (negative: taken away). */
  raw: Map<string, [number, number][]>;
  /** The project's tools with calls (of all time; the filter's one tool if it names one). */
  tools: string[];
  /** This query's reader of exact durations in the rollups (shared by its parts). */
  read: ExactDurations;
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

  /** Reads one project's tools, rollup counts and raw partial hours. */
  function partOf(p: number, f: CallFilter, read: ExactDurations): Part {
    const { whole, days, plus, minus, partial, minusRaw } = splitAdditive({
      from: f.from,
      to: f.to,
    });
    const tools = (
      prepare(
        `SELECT DISTINCT tool_name FROM metrics_latency
         WHERE project_id = ? AND tool_name <> '' AND n > 0`,
      )
        .pluck()
        .all(p) as string[]
    ).filter((t) => f.tool === undefined || t === f.tool);
    const fine = new Map<string, Fine>();
    const byDay = prepare(
      `SELECT bucket, sum(n), sum(ms) FROM metrics_latency_days
       WHERE project_id = ? AND tool_name = ? AND day_ms >= ? AND day_ms < ? AND n > 0 GROUP BY bucket`,
    ).raw();
    const byHour = prepare(
      `SELECT bucket, sum(n), sum(ms) FROM metrics_latency_hours
       WHERE project_id = ? AND tool_name = ? AND hour_ms >= ? AND hour_ms < ? AND n > 0 GROUP BY bucket`,
    ).raw();
    for (const tool of tools) {
      if (days)
        addFine(fine, tool, byDay.all(p, tool, days.from ?? MIN_MS, days.to ?? MAX_MS) as never);
      for (const h of plus)
        addFine(fine, tool, byHour.all(p, tool, h.from ?? MIN_MS, h.to ?? MAX_MS) as never);
      // An edge day read whole gives back the hours outside the range.
      for (const h of minus) {
        const rows = byHour.all(p, tool, h.from!, h.to!) as [number, number, number][];
        addFine(
          fine,
          tool,
          rows.map(([b, n, ms]): [number, number, number] => [b, -n, -ms]),
        );
      }
    }
    const raw = new Map<string, [number, number][]>();
    const rawRows = prepare(
      `SELECT tool_name, duration_ms, count(*) FROM calls INDEXED BY calls_by_time
       WHERE project_id = @p AND started_ms >= @from AND started_ms < @to
         ${f.tool !== undefined ? 'AND tool_name = @tool' : ''}
       GROUP BY 1, 2`,
    ).raw();
    // Parts of hours: added, or taken away from an edge hour read whole (negative counts).
    const rawSpans = [
      ...partial.map((e): [Span, number] => [e, 1]),
      ...minusRaw.map((e): [Span, number] => [e, -1]),
    ];
    for (const [e, sign] of rawSpans) {
      const params = { p, from: e.from ?? MIN_MS, to: e.to ?? MAX_MS, tool: f.tool };
      if (f.tool === undefined) delete params.tool;
      for (const [t, d, n] of rawRows.all(params) as [string, number, number][]) {
        const list = raw.get(t) ?? [];
        list.push([d, sign * n]);
        raw.set(t, list);
      }
    }
    return { p, whole, fine, raw, tools, read };
  }

  const readers = exactDurationReader(ctx);

  /**
   * Exact `[duration, count]` of the given tools' calls in a fine bucket: the partial hours'
   * raw values, then one read of the whole hours for every tool with calls there (`withRaw`
   * false: the whole hours only).
   */
  function exactIn(
    part: Part,
    tools: readonly string[],
    bucket: number,
    withRaw = true,
  ): [number, number][] {
    const out: [number, number][] = [];
    const [lo, hi] = fineBucketRange(bucket);
    if (withRaw)
      for (const t of tools)
        for (const [d, n] of part.raw.get(t) ?? []) if (d >= lo && d < hi) out.push([d, n]);
    const inRollup = tools.filter((t) => (part.fine.get(t)?.get(bucket)?.[0] ?? 0) > 0);
    if (part.whole && inRollup.length > 0) {
      for (const [, d, n] of part.read(part.p, inRollup, bucket, [part.whole])) out.push([d, n]);
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
      return mergeHistograms(parts.map((part) => exactIn(part, tools, b)));
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
    for (const part of parts) {
      // Fine buckets straddling a log edge, with the tools that have calls in them: each is
      // read exactly, once for all those tools.
      const straddling = new Map<number, string[]>();
      for (const t of tools) {
        for (const [d, n] of part.raw.get(t) ?? []) add(d, n, d * n);
        for (const [b, [n, ms]] of part.fine.get(t) ?? []) {
          if (n <= 0) continue;
          const [lo, hi] = fineBucketRange(b);
          if (sizeBucket(lo) === sizeBucket(hi - 1)) add(lo, n, ms);
          else straddling.set(b, [...(straddling.get(b) ?? []), t]);
        }
      }
      for (const [b, ts] of straddling)
        for (const [d, k] of exactIn(part, ts, b, false)) add(d, k, d * k);
    }
    return sizeHistogram(m);
  }

  return {
    /**
     * Exact percentiles of a time-bounded view without a client or session filter, overall
     * and per tool, and its duration histogram (read only when asked for).
     */
    rangePercentiles(projects: number[], f: CallFilter): RangePercentiles {
      const read = readers();
      const parts = projects.map((p) => partOf(p, f, read));
      const tools = [...new Set(parts.flatMap((part) => part.tools))].sort();
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
