/**
 * Which lane a read takes. Quick reads (the status, the summary, one session, a page of calls)
 * may use every read thread, one of them kept for them alone; heavy reads (exports, series,
 * error groups) only the others — so a view that takes seconds never stands in front of one
 * that takes milliseconds. A read is heavy by kind, or because reads of its shape (the same
 * operation with the same filters present) took long lately.
 */
import type { ApiName } from '../../shared/api-routes.js';

/** A read's lane. */
export type Lane = 'quick' | 'heavy';

/** Operations that read in proportion to the calls they cover, whatever they took last time. */
const HEAVY: ReadonlySet<ApiName> = new Set<ApiName>([
  'export',
  'timeseries',
  'toolErrors',
  'metricsCalls',
  'compare',
  'chains',
  'sizes',
  'pairs',
  'insights',
]);

/**
 * Past this (a moving average of the shape's recent reads), a read takes the heavy lane. Not
 * lower: the summary itself takes ~100 ms on a busy machine, and demoted behind an export it
 * waited seconds (bench/read-isolation.ts: /api/summary p99 990 ms at 100, 215 ms at 300).
 */
export const HEAVY_MS = 300;

/** Filters whose presence changes a read's cost (one client's summary is not the summary). */
const SHAPING = ['project', 'from', 'to', 'tool', 'client', 'session', 'outcome', 'q'] as const;

/** The shape of a read: its operation and which of the shaping filters it has. */
export function shapeOf(name: ApiName, query: URLSearchParams): string {
  return [name, ...SHAPING.filter((k) => query.has(k))].join(' ');
}

/** Remembers how long reads of each shape take and picks their lane. */
export class LaneChooser {
  private readonly averageMs = new Map<string, number>();

  lane(name: ApiName, shape: string): Lane {
    if (HEAVY.has(name)) return 'heavy';
    // One client's view has no percentile rollup: it counts the calls' durations. Known before
    // its first run, so the first one never takes the quick thread either.
    if (shape.split(' ').includes('client')) return 'heavy';
    return (this.averageMs.get(shape) ?? 0) > HEAVY_MS ? 'heavy' : 'quick';
  }

  /** Records a finished read (an exponential average: the last few reads count most). */
  record(shape: string, ms: number): void {
    const before = this.averageMs.get(shape);
    this.averageMs.set(shape, before === undefined ? ms : before * 0.7 + ms * 0.3);
    // Shapes are few (operations × filter sets), but a bound keeps a fuzzer from growing it.
    if (this.averageMs.size > 2_000) this.averageMs.clear();
  }
}
