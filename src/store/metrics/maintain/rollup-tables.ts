/**
 * Every rollup the maintainer adds to per call, by its columns: the key a row is found by and
 * the sums added to it, in the order `RollupDeltas` (./rollup-deltas.ts) keeps an entry's key
 * and values. One declaration for both directions — ingest's upserts (./statements.ts) and
 * the forget hook's subtractions (../forget/subtract.ts) are built from it — so the two cannot
 * bind columns in different orders.
 */

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

/** Every rollup but `metrics_sessions` (first and last times are not sums) and chains. */
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
  {
    table: 'metrics_tool_session_hours',
    keys: ['project_id', 'tool_name', 'hour_ms', 'session_id', 'client_name'],
    sums: ['calls'],
    count: 'calls',
  },
];

/** The upsert that adds one entry's deltas to its rollup row (creating the row). */
export const upsertRollupSql = (r: Rollup): string =>
  `INSERT INTO ${r.table} (${[...r.keys, ...r.sums].join(', ')})
   VALUES (${[...r.keys, ...r.sums].map(() => '?').join(', ')})
   ON CONFLICT DO UPDATE SET ${r.sums.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}`;
