/**
 * What every metrics query shares on one connection: the statement cache, the projects a
 * filter covers, the index choice for a range, and the split between the daily rollup and raw
 * calls. Queries only read: projects whose calls were deleted are rebuilt by the writer before
 * a read is asked (`Store.flushDerived`), so a read-only connection on a read thread answers
 * exactly what the writer would.
 */
import type Database from 'better-sqlite3';
import { DAY_MS } from '../../../shared/metric-constants.js';
import { splitAdditive, splitByDay, type Span } from '../../../metrics/time.js';
import { statementCache } from '../../statement-cache.js';
import type { CallFilter } from '../../../shared/rows.js';
import { ALL_TIME } from '../sql.js';
import type { Params } from './sql-parts.js';
import { isOneTool, toolCallsIn } from './tool-calls.js';

/**
 * Below this share of a project's calls, a time range is read through `calls_by_time`
 * (project, start), each call's row looked up in time order; above it, one pass over the
 * table is cheaper.
 */
const TIME_INDEX_SHARE = 0.2;

/** Builds the shared query context for one connection. */
export function createQueryContext(db: Database.Database) {
  const prepare = statementCache(db);
  const projectIds = db.prepare<[], { id: number }>('SELECT id FROM projects ORDER BY id').pluck();
  const latestStartup = db.prepare<[number], { id: number }>(
    'SELECT id FROM startups WHERE project_id = ? ORDER BY id DESC LIMIT 1',
  );
  const toolsOf = db.prepare<[number], { name: string; schema_bytes: number }>(
    'SELECT name, schema_bytes FROM startup_tools WHERE startup_id = ? ORDER BY position',
  );

  /** The projects a filter covers: one, or all of them together. */
  function projectsOf(f: CallFilter): number[] {
    return f.projectId !== undefined ? [f.projectId] : (projectIds.all() as unknown as number[]);
  }

  const all = <T>(sql: string, params: Params): T[] => prepare(sql).all(params) as T[];

  /** Roughly what share of a project's calls the filter's time range holds (from the rollup). */
  function timeShare(p: number, f: Span): number {
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
   * The FROM of a read of the calls matching `f` in `span` that leaves the index to SQLite,
   * except for one tool's calls (no session), which only `toolCalls` (./tool-calls.ts) finds
   * cheaply.
   */
  function rawCalls(f: CallFilter, span: Span = f): string {
    return isOneTool(f) ? toolCallsIn(span) : 'calls';
  }

  /**
   * Where a read of the calls matching `f` in `span` finds them, as the FROM of a statement
   * that filters with `conditions(f, RAW, span)` (named parameters `from`/`to` when the span
   * has them): one session's index range; one tool's calls through its sessions by hour (see
   * `toolCalls`); a short time range through `calls_by_time`; else the whole table (the
   * session index, for `bySession` reads of distinct sessions).
   */
  function callsOf(p: number, f: CallFilter, span: Span = f, bySession = false): string {
    if (f.session !== undefined || f.tool !== undefined) return rawCalls(f, span);
    if ((span.from !== undefined || span.to !== undefined) && timeShare(p, span) < TIME_INDEX_SHARE)
      return 'calls INDEXED BY calls_by_time';
    return bySession ? 'calls INDEXED BY calls_by_session' : 'calls';
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

  /**
   * Splits work three ways for rollups kept by day and by hour, whose rows add (counts and
   * sums): whole days (or all time, for an unbounded range), whole hours at the edges, and
   * only parts of hours raw. An edge day covered for more than half is read as the day minus
   * the hours it leaves out (`minus`), an edge hour covered for more than half as the hour
   * minus the minutes it leaves out (`minusRaw`; `splitAdditive`): the caller merges the
   * signed rows. A session filter reads raw calls (one session's index range).
   */
  function byHours<T>(
    f: CallFilter,
    read: {
      days: (p: number, span: Span) => T[];
      hours: (p: number, span: Span) => T[];
      raw: (p: number, span: Span) => T[];
      minus: (p: number, span: Span) => T[];
      minusRaw: (p: number, span: Span) => T[];
    },
  ): T[] {
    const out: T[] = [];
    for (const p of projectsOf(f)) {
      if (f.session !== undefined) {
        out.push(...read.raw(p, { from: f.from, to: f.to }));
        continue;
      }
      const split = splitAdditive({ from: f.from, to: f.to });
      if (split.days) out.push(...read.days(p, split.days));
      for (const h of split.plus) out.push(...read.hours(p, h));
      for (const h of split.minus) out.push(...read.minus(p, h));
      for (const e of split.partial) out.push(...read.raw(p, e));
      for (const e of split.minusRaw) out.push(...read.minusRaw(p, e));
    }
    return out;
  }

  return {
    db,
    prepare,
    latestStartup,
    toolsOf,
    projectsOf,
    all,
    timeShare,
    callsOf,
    rawCalls,
    byDays,
    byHours,
  };
}

/** The shared query context (see {@link createQueryContext}). */
export type QueryContext = ReturnType<typeof createQueryContext>;
