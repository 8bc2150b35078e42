/**
 * Exact durations of one tool, or of several together, inside one fine latency bucket, over
 * whole hours, from the durations rollups by day and by hour (migration 009) — never the
 * calls. Each day and each hour read is one index seek that returns only the bucket's few
 * duration values.
 *
 * Counts add, so a day that a span covers for more than half is read as the whole day minus
 * the hours it leaves out (`splitAdditive`): a span costs at most one seek per day plus twelve
 * per edge, not twenty-three per edge.
 */
import { fineBucketRange } from '../../../metrics/latency.js';
import { splitAdditive, type Span } from '../../../metrics/time.js';
import { DAY_MS, HOUR_MS } from '../../../shared/metric-constants.js';
import type { QueryContext } from './context.js';

/** `[key, duration_ms, count]`: the key is the span's (0 unless the caller set one). */
export type KeyedDurations = [number, number, number][];

/** A span of whole hours (an open end is closed at the tool's first or last day), keyed. */
export interface KeyedSpan extends Span {
  key?: number;
}

/** Reads exact durations (see {@link exactDurationReader}). */
export type ExactDurations = (
  p: number,
  tools: string | readonly string[],
  bucket: number,
  spans: readonly KeyedSpan[],
) => KeyedDurations;

/** `[time, key, sign]` rows: which day or hour rows to read, for which key, added or taken. */
type Reads = { days: [number, number, number][]; hours: [number, number, number][] };

/** Adds the reads covering the whole hours `[from, to)` under `key` to `into`. */
export function planReads(from: number, to: number, key: number, into: Reads): void {
  const { days, plus, minus } = splitAdditive({ from, to });
  const each = (s: Span, step: number, sign: number, list: Reads['days']) => {
    for (let t = s.from!; t < s.to!; t += step) list.push([t, key, sign]);
  };
  if (days) each(days, DAY_MS, 1, into.days);
  for (const h of plus) each(h, HOUR_MS, 1, into.hours);
  for (const h of minus) each(h, HOUR_MS, -1, into.hours);
}

/**
 * The reader's factory for one connection. Each reader remembers its tools' first and last
 * days and what it read, so make one per query: several percentiles of one view often ask
 * for the same tool and bucket.
 */
export function exactDurationReader(ctx: QueryContext) {
  const { prepare } = ctx;
  /** A tool's first or last day: one index seek. */
  const edgeDay = (dir: 'ASC' | 'DESC') =>
    prepare(
      `SELECT day_ms FROM metrics_duration_days
       WHERE project_id = ? AND tool_name = ? ORDER BY day_ms ${dir} LIMIT 1`,
    ).pluck();
  /** One time table's rows in the bucket at a JSON array of times (SQLite seeks them in order). */
  const atTimes = (table: string, timeCol: string) =>
    prepare(
      `SELECT ${timeCol}, duration_ms, n FROM ${table}
       WHERE project_id = @p AND tool_name IN (SELECT value FROM json_each(@tools))
         AND ${timeCol} IN (SELECT value FROM json_each(@times))
         AND duration_ms >= @lo AND duration_ms < @hi`,
    ).raw();

  return (): ExactDurations => {
    const lifetimes = new Map<string, [number, number] | null>();
    const memo = new Map<string, KeyedDurations>();
    /** The tool's first day and the end of its last, or null when it has none. */
    const lifetime = (p: number, tool: string): [number, number] | null => {
      const k = `${p}\u0000${tool}`;
      if (!lifetimes.has(k)) {
        const first = edgeDay('ASC').get(p, tool) as number | undefined;
        const last = edgeDay('DESC').get(p, tool) as number | undefined;
        lifetimes.set(k, first === undefined || last === undefined ? null : [first, last + DAY_MS]);
      }
      return lifetimes.get(k)!;
    };

    /** The tools' first day and the end of their last, or null when none has any. */
    const lifetimeOf = (p: number, tools: readonly string[]): [number, number] | null => {
      let out: [number, number] | null = null;
      for (const t of tools) {
        const l = lifetime(p, t);
        if (l) out = out ? [Math.min(out[0], l[0]), Math.max(out[1], l[1])] : [...l];
      }
      return out;
    };

    /**
     * `[key, duration, count]` of the calls of one tool, or of several together, in fine
     * bucket `bucket` within `spans`, each span's rows under its key (spans may share one).
     */
    return (p, tool, bucket, spans) => {
      const tools = typeof tool === 'string' ? [tool] : [...tool];
      const memoKey = JSON.stringify([p, tools, bucket, spans]);
      const known = memo.get(memoKey);
      if (known) return known;
      const reads: Reads = { days: [], hours: [] };
      for (const { from, to, key = 0 } of spans) {
        const open = !Number.isFinite(from ?? NaN) || !Number.isFinite(to ?? NaN);
        const life = open ? lifetimeOf(p, tools) : null;
        if (open && !life) continue;
        const lo = Number.isFinite(from ?? NaN) ? from! : life![0];
        const hi = Number.isFinite(to ?? NaN) ? to! : life![1];
        planReads(lo, hi, key, reads);
      }
      const [lo, hi] = fineBucketRange(bucket);
      // Signed counts per key and duration: a time may be read for several keys, and an hour
      // may be taken from one key's day and added to the next key's.
      const acc = new Map<number, Map<number, number>>();
      const read = (table: string, timeCol: string, list: [number, number, number][]) => {
        if (list.length === 0 || tools.length === 0) return;
        const uses = new Map<number, [number, number][]>();
        for (const [t, key, sign] of list) {
          const u = uses.get(t);
          if (u) u.push([key, sign]);
          else uses.set(t, [[key, sign]]);
        }
        const rows = atTimes(table, timeCol).all({
          p,
          tools: JSON.stringify(tools),
          lo,
          hi,
          times: JSON.stringify([...uses.keys()]),
        }) as [number, number, number][];
        for (const [t, d, n] of rows)
          for (const [key, sign] of uses.get(t)!) {
            const m = acc.get(key) ?? acc.set(key, new Map()).get(key)!;
            m.set(d, (m.get(d) ?? 0) + sign * n);
          }
      };
      read('metrics_duration_days', 'day_ms', reads.days);
      read('metrics_duration_hours', 'hour_ms', reads.hours);
      const out: KeyedDurations = [];
      for (const [key, m] of acc) for (const [d, n] of m) if (n !== 0) out.push([key, d, n]);
      memo.set(memoKey, out);
      return out;
    };
  };
}
