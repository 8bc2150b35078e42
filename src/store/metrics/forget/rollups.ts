/**
 * What forgetting calls subtracts from: every derived table, written as `rebuildSql` fills it
 * (key expressions over `calls` and the summed columns), and the check that the live schema
 * still matches these declarations — if the engine gains a table or column this list does not
 * know, subtracting would leave it wrong, so forgetting falls back to the rebuild.
 */
import type Database from 'better-sqlite3';
import {
  ALL_TIME,
  DAY_SQL,
  DERIVED_TABLES,
  FINE_BUCKET_SQL,
  HEAD_SQL,
  HOUR_SQL,
  LATENCY_SUMS_SQL,
  OC_SQL,
} from '../sql.js';

/**
 * A rollup as `rebuildSql` fills it: key columns as expressions over `calls`, summed columns,
 * one grouped SELECT per variant (e.g. the daily rows and their all-time twins).
 */
export interface Rollup {
  table: string;
  keys: Record<string, string>;
  /** The summed columns, and the SELECT list computing them (aliased to those names). */
  sums: [columns: string[], select: string];
  /** The summed column that is 0 when a key has no calls left. */
  count: string;
  where?: string;
  /** Key expressions overridden per variant. */
  variants: Record<string, string>[];
}

const DAY = DAY_SQL('started_ms');
const HOUR = HOUR_SQL('started_ms');
const BOTH_DAYS: Record<string, string>[] = [{}, { day_ms: String(ALL_TIME) }];
const COUNT_N: Pick<Rollup, 'sums' | 'count'> = { sums: [['n'], 'count(*) AS n'], count: 'n' };

/** The stat columns of `metrics_daily` and `metrics_hour_stats`. */
const STAT_SUMS: Rollup['sums'] = [
  ['calls', 'units', 'duration', 'l0', 'l1', 'l2', 'l3'],
  `count(*) AS calls, sum(response_bytes) AS units, sum(duration_ms) AS duration,
   ${LATENCY_SUMS_SQL()}`,
];

/** Stat rows (tool × client × outcome class × link × chain head) by a time unit. */
const statsBy = (
  table: string,
  timeCol: string,
  unit: string,
  variants: Rollup['variants'],
): Rollup => ({
  table,
  keys: {
    project_id: 'project_id',
    [timeCol]: unit,
    tool_name: 'tool_name',
    client_name: 'client_name',
    oc: OC_SQL(),
    link: 'link',
    head: HEAD_SQL(),
  },
  sums: STAT_SUMS,
  count: 'calls',
  variants,
});

/** Fine latency buckets with their duration sums by a time unit, per tool (and for all tools). */
const latencyBy = (table: string, timeCol: string, unit: string, allTools: boolean): Rollup => ({
  table,
  keys: {
    project_id: 'project_id',
    tool_name: 'tool_name',
    [timeCol]: unit,
    bucket: FINE_BUCKET_SQL('duration_ms'),
  },
  sums: [['n', 'ms'], 'count(*) AS n, sum(duration_ms) AS ms'],
  count: 'n',
  variants: allTools ? [{}, { tool_name: "''" }] : [{}],
});

/** Exact durations per tool by a time unit. */
const durationsBy = (table: string, timeCol: string, unit: string): Rollup => ({
  table,
  keys: {
    project_id: 'project_id',
    tool_name: 'tool_name',
    [timeCol]: unit,
    duration_ms: 'duration_ms',
  },
  ...COUNT_N,
  variants: [{}],
});

/** Every rollup but sessions and chains, table for table with `rebuildSql`. */
export const ROLLUPS: Rollup[] = [
  statsBy('metrics_daily', 'day_ms', DAY, BOTH_DAYS),
  {
    table: 'metrics_pairs',
    keys: {
      project_id: 'project_id',
      day_ms: DAY,
      client_name: 'client_name',
      from_tool: 'prev_tool',
      to_tool: 'tool_name',
    },
    ...COUNT_N,
    where: 'prev_tool IS NOT NULL AND prev_tool <> tool_name',
    variants: BOTH_DAYS,
  },
  {
    table: 'metrics_sizes',
    keys: {
      project_id: 'project_id',
      day_ms: DAY,
      tool_name: 'tool_name',
      client_name: 'client_name',
      bucket: 'size_bucket',
    },
    sums: [['n', 'units'], 'count(*) AS n, sum(response_bytes) AS units'],
    count: 'n',
    variants: BOTH_DAYS,
  },
  {
    table: 'metrics_durations',
    keys: { project_id: 'project_id', duration_ms: 'duration_ms' },
    ...COUNT_N,
    variants: [{}],
  },
  {
    table: 'metrics_latency',
    keys: {
      project_id: 'project_id',
      tool_name: 'tool_name',
      bucket: FINE_BUCKET_SQL('duration_ms'),
    },
    ...COUNT_N,
    variants: [{}, { tool_name: "''" }],
  },
  {
    table: 'metrics_hourly',
    keys: { project_id: 'project_id', hour_ms: HOUR, oc: OC_SQL(), link: 'link' },
    sums: [['calls', 'units'], 'count(*) AS calls, sum(response_bytes) AS units'],
    count: 'calls',
    variants: [{}],
  },
  statsBy('metrics_hour_stats', 'hour_ms', HOUR, [{}]),
  latencyBy('metrics_latency_days', 'day_ms', DAY, false),
  latencyBy('metrics_latency_hours', 'hour_ms', HOUR, true),
  durationsBy('metrics_duration_days', 'day_ms', DAY),
  durationsBy('metrics_duration_hours', 'hour_ms', HOUR),
  {
    table: 'metrics_session_hours',
    keys: {
      project_id: 'project_id',
      hour_ms: HOUR,
      session_id: 'session_id',
      client_name: 'client_name',
    },
    sums: [['calls'], 'count(*) AS calls'],
    count: 'calls',
    variants: [{}],
  },
];

/** Derived tables this module keeps exact; anything else in DERIVED_TABLES disables it. */
const KNOWN = new Set([...ROLLUPS.map((r) => r.table), 'metrics_sessions', 'metrics_chains']);

/**
 * True when the database's derived tables and rollup columns are exactly the ones declared
 * here, so subtracting a forgotten call's contribution leaves every one of them exact.
 */
export function schemaIsKnown(db: Database.Database): boolean {
  const columnsOf = (t: string): string[] =>
    db
      .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${t}')`)
      .all()
      .map((c) => c.name);
  const sameSet = (a: string[], b: string[]) =>
    a.length === b.length && a.every((x) => b.includes(x));
  return (
    DERIVED_TABLES.every((t) => KNOWN.has(t)) &&
    ROLLUPS.every((r) => sameSet(columnsOf(r.table), [...Object.keys(r.keys), ...r.sums[0]]))
  );
}
