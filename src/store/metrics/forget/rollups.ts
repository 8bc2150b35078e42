/**
 * What forgetting calls subtracts from: every rollup's key and summed columns, in the order
 * the maintainer's accumulators keep them (../maintain/rollup-deltas.ts), and the check that
 * the live schema still matches these declarations — if the engine gains a table or column
 * this list does not know, subtracting would leave it wrong, so forgetting falls back to the
 * rebuild.
 */
import type Database from 'better-sqlite3';
import { DERIVED_TABLES } from '../sql.js';

/** A rollup's columns: a row is found by `keys` and `sums` are added to it. */
export interface Rollup {
  table: string;
  /** The key columns, in the order of an accumulator entry's key. */
  keys: string[];
  /** The summed columns, in the order of an accumulator entry's values. */
  sums: string[];
  /** The summed column that is 0 when a key has no calls left. */
  count: string;
}

const STAT_SUMS = ['calls', 'units', 'duration', 'l0', 'l1', 'l2', 'l3'];
const statsBy = (table: string, time: string): Rollup => ({
  table,
  keys: ['project_id', time, 'tool_name', 'client_name', 'oc', 'link', 'head'],
  sums: STAT_SUMS,
  count: 'calls',
});
const latencyBy = (table: string, time: string): Rollup => ({
  table,
  keys: ['project_id', 'tool_name', time, 'bucket'],
  sums: ['n', 'ms'],
  count: 'n',
});
const durationsBy = (table: string, time: string): Rollup => ({
  table,
  keys: ['project_id', 'tool_name', time, 'duration_ms'],
  sums: ['n'],
  count: 'n',
});

/** Every rollup but sessions and chains. */
export const ROLLUPS: Rollup[] = [
  statsBy('metrics_daily', 'day_ms'),
  {
    table: 'metrics_pairs',
    keys: ['project_id', 'day_ms', 'client_name', 'from_tool', 'to_tool'],
    sums: ['n'],
    count: 'n',
  },
  {
    table: 'metrics_sizes',
    keys: ['project_id', 'day_ms', 'tool_name', 'client_name', 'bucket'],
    sums: ['n', 'units'],
    count: 'n',
  },
  { table: 'metrics_durations', keys: ['project_id', 'duration_ms'], sums: ['n'], count: 'n' },
  {
    table: 'metrics_latency',
    keys: ['project_id', 'tool_name', 'bucket'],
    sums: ['n'],
    count: 'n',
  },
  {
    table: 'metrics_hourly',
    keys: ['project_id', 'hour_ms', 'oc', 'link'],
    sums: ['calls', 'units'],
    count: 'calls',
  },
  statsBy('metrics_hour_stats', 'hour_ms'),
  latencyBy('metrics_latency_days', 'day_ms'),
  latencyBy('metrics_latency_hours', 'hour_ms'),
  durationsBy('metrics_duration_days', 'day_ms'),
  durationsBy('metrics_duration_hours', 'hour_ms'),
  {
    table: 'metrics_session_hours',
    keys: ['project_id', 'hour_ms', 'session_id', 'client_name'],
    sums: ['calls'],
    count: 'calls',
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
    ROLLUPS.every((r) => sameSet(columnsOf(r.table), [...r.keys, ...r.sums]))
  );
}
