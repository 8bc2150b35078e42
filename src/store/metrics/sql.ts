/**
 * SQL fragments shared by migration 002, the full rebuild and the queries, so the stored facts,
 * the rollups and the raw reads all use one definition (mirroring src/metrics).
 */
import {
  DAY_MS,
  HOUR_MS,
  RETRY_WINDOW_MS,
  SLOW_CALL_MS,
  UNKNOWN_HASH,
} from '../../shared/metric-constants.js';
import { SIZE_EDGES } from '../../metrics/sizes.js';

/** Outcome class 0–4 (ok, empty, bad_args, tool_error, crashed) of a `calls` row. */
export const OC_SQL = (p = ''): string =>
  `CASE ${p}outcome WHEN 'ok' THEN ${p}is_empty WHEN 'bad_args' THEN 2 WHEN 'tool_error' THEN 3 ELSE 4 END`;

/** Start of the UTC day of a millisecond column (floor, also for times before 1970). */
export const DAY_SQL = (col: string): string =>
  `(${col} - (((${col} % ${DAY_MS}) + ${DAY_MS}) % ${DAY_MS}))`;

/** Start of the UTC hour of a millisecond column. */
export const HOUR_SQL = (col: string): string =>
  `(${col} - (((${col} % ${HOUR_MS}) + ${HOUR_MS}) % ${HOUR_MS}))`;

/** 1 for the first call of a retry chain. */
export const HEAD_SQL = (p = ''): string => `(${p}chain = 1 AND ${p}prev_link = 0)`;

/** Latency bucket counts (<100, <500, <2000, ≥2000) as four sums. */
export const LATENCY_SUMS_SQL = (p = ''): string =>
  `sum(${p}duration_ms < 100) AS l0, sum(${p}duration_ms >= 100 AND ${p}duration_ms < 500) AS l1,
   sum(${p}duration_ms >= 500 AND ${p}duration_ms < ${SLOW_CALL_MS}) AS l2, sum(${p}duration_ms >= ${SLOW_CALL_MS}) AS l3`;

/** Size bucket of a units column, matching `sizeBucket()` in src/metrics/sizes.ts. */
export const SIZE_BUCKET_SQL = (col: string): string =>
  `CASE WHEN ${col} < 1 THEN 0 ${SIZE_EDGES.map((e, i) => `WHEN ${col} < ${e} THEN ${i}`).join(' ')} ELSE ${SIZE_EDGES.length} END`;

/** Fine latency bucket of a duration column, matching `fineBucket()` in src/metrics/latency.ts. */
export const FINE_BUCKET_SQL = (col: string): string => {
  const steps: string[] = [];
  for (let e = 5; e <= 46; e++) {
    steps.push(
      `WHEN ${col} < ${2 ** (e + 1)} THEN ${32 + 16 * (e - 5)} + ((${col} >> ${e - 4}) & 15)`,
    );
  }
  return `CASE WHEN ${col} < 32 THEN ${col} ${steps.join(' ')} ELSE 0 END`;
};

/** Octave (bit length) of a duration column, matching `octave()` in src/metrics/latency.ts. */
export const OCTAVE_SQL = (col: string): string => {
  const steps: string[] = [];
  for (let b = 1; b <= 48; b++) steps.push(`WHEN ${col} < ${2 ** b} THEN ${b}`);
  return `CASE WHEN ${col} < 1 THEN 0 ${steps.join(' ')} ELSE 49 END`;
};

/** `day_ms` of the all-time rows kept beside the daily ones (never a real day start). */
export const ALL_TIME = -1;

/** Link code from the row's hash/time (`h`, `t`) to another's (`oh`, `ot`), `ot` after `t`. */
const linkSql = (t: string, h: string, ot: string, oh: string): string =>
  `CASE WHEN ${t} IS NULL OR ${ot} IS NULL OR ${ot} - ${t} > ${RETRY_WINDOW_MS} THEN 0
        WHEN ${h} = '${UNKNOWN_HASH}' OR ${oh} = '${UNKNOWN_HASH}' THEN 3
        WHEN ${h} = ${oh} THEN 2 ELSE 1 END`;

/**
 * The derived tables keyed by project (a deleted project takes its rows along), each with the
 * migration that created it and, for a table a later one replaced, the one that dropped it: a
 * migration's backfill fills exactly the tables that existed at its version.
 */
const DERIVED: { table: string; since: number; until?: number }[] = [
  { table: 'metrics_daily', since: 2 },
  { table: 'metrics_sessions', since: 2 },
  { table: 'metrics_pairs', since: 2 },
  { table: 'metrics_sizes', since: 2 },
  { table: 'metrics_latency', since: 2 },
  { table: 'metrics_durations', since: 2 },
  { table: 'metrics_hourly', since: 2 },
  { table: 'metrics_latency_hourly', since: 2, until: 8 },
  { table: 'metrics_chains', since: 2 },
  { table: 'metrics_hour_stats', since: 8 },
  { table: 'metrics_latency_days', since: 8 },
  { table: 'metrics_latency_hours', since: 8 },
  { table: 'metrics_session_hours', since: 8 },
  { table: 'metrics_duration_days', since: 9 },
  { table: 'metrics_duration_hours', since: 9 },
  { table: 'metrics_tool_session_hours', since: 13 },
];

/** The newest schema version whose derived tables {@link rebuildSql} fills by default. */
export const DERIVED_VERSION = 13;

/** The derived tables at a schema version (the current ones by default). */
export const derivedTablesAt = (version = DERIVED_VERSION): string[] =>
  DERIVED.filter((d) => d.since <= version && (d.until === undefined || d.until > version)).map(
    (d) => d.table,
  );

/** The derived tables of the current schema. */
export const DERIVED_TABLES = derivedTablesAt();

/** `INSERT … SELECT` statements filling one derived table from the calls matching `where`. */
type Fill = (where: string) => string;

const DAY = DAY_SQL('started_ms');
const HOUR = HOUR_SQL('started_ms');
const FINE = FINE_BUCKET_SQL('duration_ms');

/** Daily rows and their all-time twins from one grouped select. */
const dailyAndAllTime =
  (table: string, cols: string, select: (dayExpr: string, where: string) => string): Fill =>
  (where) =>
    `INSERT INTO ${table} (${cols}) ${select(DAY, where)};
INSERT INTO ${table} (${cols}) ${select(String(ALL_TIME), where)};`;

/**
 * Per tool, and with `allTools` also for all tools (`tool_name` ''), by a time unit, in fine
 * latency buckets.
 */
const latencyBy =
  (table: string, timeCol: string, unit: string, allTools: boolean): Fill =>
  (where) =>
    `INSERT INTO ${table} (project_id, tool_name, ${timeCol}, bucket, n, ms)
SELECT project_id, tool_name, ${unit}, ${FINE}, count(*), sum(duration_ms) FROM main.calls WHERE ${where} GROUP BY 1, 2, 3, 4;` +
    (allTools
      ? `
INSERT INTO ${table} (project_id, tool_name, ${timeCol}, bucket, n, ms)
SELECT project_id, '', ${unit}, ${FINE}, count(*), sum(duration_ms) FROM main.calls WHERE ${where} GROUP BY 1, 3, 4;`
      : '');

/** Exact durations per tool by a time unit. */
const durationsBy =
  (table: string, timeCol: string, unit: string): Fill =>
  (where) =>
    `INSERT INTO ${table} (project_id, tool_name, ${timeCol}, duration_ms, n)
SELECT project_id, tool_name, ${unit}, duration_ms, count(*) FROM main.calls WHERE ${where} GROUP BY 1, 2, 3, 4;`;

/** How each rollup is filled from raw calls (facts already derived); sessions, chains below. */
const FILLS: Record<string, Fill> = {
  metrics_daily: dailyAndAllTime(
    'metrics_daily',
    'project_id, day_ms, tool_name, client_name, oc, link, head, calls, units, duration, l0, l1, l2, l3',
    (
      d,
      where,
    ) => `SELECT project_id, ${d}, tool_name, client_name, ${OC_SQL()}, link, ${HEAD_SQL()},
       count(*), sum(response_bytes), sum(duration_ms), ${LATENCY_SUMS_SQL()}
FROM main.calls WHERE ${where} GROUP BY 1, 2, 3, 4, 5, 6, 7`,
  ),
  metrics_pairs: dailyAndAllTime(
    'metrics_pairs',
    'project_id, day_ms, client_name, from_tool, to_tool, n',
    (d, where) => `SELECT project_id, ${d}, client_name, prev_tool, tool_name, count(*)
FROM main.calls WHERE ${where} AND prev_tool IS NOT NULL AND prev_tool <> tool_name GROUP BY 1, 2, 3, 4, 5`,
  ),
  metrics_sizes: dailyAndAllTime(
    'metrics_sizes',
    'project_id, day_ms, tool_name, client_name, bucket, n, units',
    (
      d,
      where,
    ) => `SELECT project_id, ${d}, tool_name, client_name, size_bucket, count(*), sum(response_bytes)
FROM main.calls WHERE ${where} GROUP BY 1, 2, 3, 4, 5`,
  ),
  metrics_durations: (where) => `INSERT INTO metrics_durations (project_id, duration_ms, n)
SELECT project_id, duration_ms, count(*) FROM main.calls WHERE ${where} GROUP BY 1, 2;`,
  metrics_latency: (where) => `INSERT INTO metrics_latency (project_id, tool_name, bucket, n)
SELECT project_id, tool_name, ${FINE}, count(*) FROM main.calls WHERE ${where} GROUP BY 1, 2, 3;
INSERT INTO metrics_latency (project_id, tool_name, bucket, n)
SELECT project_id, '', ${FINE}, count(*) FROM main.calls WHERE ${where} GROUP BY 1, 3;`,
  metrics_hourly: (
    where,
  ) => `INSERT INTO metrics_hourly (project_id, hour_ms, oc, link, calls, units)
SELECT project_id, ${HOUR}, ${OC_SQL()}, link, count(*), sum(response_bytes)
FROM main.calls WHERE ${where} GROUP BY 1, 2, 3, 4;`,
  metrics_latency_hourly: (
    where,
  ) => `INSERT INTO metrics_latency_hourly (project_id, hour_ms, bucket, n)
SELECT project_id, ${HOUR}, ${OCTAVE_SQL('duration_ms')}, count(*)
FROM main.calls WHERE ${where} GROUP BY 1, 2, 3;`,
  metrics_hour_stats: (
    where,
  ) => `INSERT INTO metrics_hour_stats (project_id, hour_ms, tool_name, client_name, oc, link, head,
                                calls, units, duration, l0, l1, l2, l3)
SELECT project_id, ${HOUR}, tool_name, client_name, ${OC_SQL()}, link, ${HEAD_SQL()},
       count(*), sum(response_bytes), sum(duration_ms), ${LATENCY_SUMS_SQL()}
FROM main.calls WHERE ${where} GROUP BY 1, 2, 3, 4, 5, 6, 7;`,
  metrics_latency_days: latencyBy('metrics_latency_days', 'day_ms', DAY, false),
  metrics_latency_hours: latencyBy('metrics_latency_hours', 'hour_ms', HOUR, true),
  metrics_duration_days: durationsBy('metrics_duration_days', 'day_ms', DAY),
  metrics_duration_hours: durationsBy('metrics_duration_hours', 'hour_ms', HOUR),
  metrics_session_hours: (
    where,
  ) => `INSERT INTO metrics_session_hours (project_id, hour_ms, session_id, client_name, calls)
SELECT project_id, ${HOUR}, session_id, client_name, count(*) FROM main.calls WHERE ${where} GROUP BY 1, 2, 3, 4;`,
  metrics_tool_session_hours: (
    where,
  ) => `INSERT INTO metrics_tool_session_hours (project_id, tool_name, hour_ms, session_id, client_name, calls)
SELECT project_id, tool_name, ${HOUR}, session_id, client_name, count(*) FROM main.calls WHERE ${where}
GROUP BY 1, 2, 3, 4, 5;`,
  metrics_sessions: (
    where,
  ) => `INSERT INTO metrics_sessions (project_id, session_id, client_name, first_ms, last_ms, last_end_ms, calls,
                              ok, empty, bad_args, tool_error, crashed, fcs, retries, repeats, unknown_links,
                              chains, units, duration, slow)
SELECT project_id, session_id, client_name, min(started_ms), max(started_ms), max(started_ms + duration_ms),
       count(*), sum(${OC_SQL()} = 0), sum(${OC_SQL()} = 1), sum(${OC_SQL()} = 2), sum(${OC_SQL()} = 3),
       sum(${OC_SQL()} = 4), sum(fcs), sum(link = 1), sum(link = 2), sum(link = 3), sum(${HEAD_SQL()}),
       sum(response_bytes), sum(duration_ms), sum(duration_ms >= ${SLOW_CALL_MS})
FROM main.calls WHERE ${where} GROUP BY project_id, session_id, client_name;`,
  metrics_chains: (
    where,
  ) => `INSERT INTO metrics_chains (run_id, project_id, session_id, tool_name, client_name, first_ms, last_ms, last_end_ms,
                            calls, retries, repeats, unknown_links, resolved, tail_id)
SELECT c.run_id, c.project_id, c.session_id, c.tool_name, h.client_name, min(c.started_ms), max(c.started_ms),
       max(CASE WHEN c.link = 0 THEN c.started_ms + c.duration_ms END), count(*), sum(c.link = 1), sum(c.link = 2),
       sum(c.link = 3), max(CASE WHEN c.link = 0 THEN (c.outcome = 'ok' AND c.is_empty = 0) END),
       max(CASE WHEN c.link = 0 THEN c.id END)
FROM main.calls c JOIN main.calls h ON h.id = c.run_id
WHERE c.chain = 1 AND ${where.replace('project_id', 'c.project_id')} GROUP BY c.run_id;`,
};

/** The condition on `calls` for one project or all of them. */
function whereProject(projectId?: number): string {
  if (projectId !== undefined && !Number.isSafeInteger(projectId))
    throw new Error('bad project id');
  return projectId === undefined ? '1' : `project_id = ${projectId}`;
}

/**
 * Fills `tables` (emptied first) from the calls' stored facts, for one project or all: a
 * migration that adds rollups backfills only those, without re-deriving the facts.
 */
export function fillSql(tables: readonly string[], projectId?: number): string {
  const where = whereProject(projectId);
  return [
    ...tables.map((t) => `DELETE FROM ${t} WHERE ${where};`),
    ...tables.map((t) => FILLS[t]!(where)),
  ].join('\n');
}

/**
 * Recomputes every derived column and rollup from the raw calls, for one project or all.
 * Used by migration 002 (backfill, at its own version's tables), after deletions
 * (`metrics_dirty`), and by the bench's bulk path. Window functions over the whole table:
 * seconds for a million rows, so never per query.
 */
export function rebuildSql(projectId?: number, version = DERIVED_VERSION): string {
  const where = whereProject(projectId);
  const tables = derivedTablesAt(version);
  return /* sql */ `
${tables.map((t) => `DELETE FROM ${t} WHERE ${where};`).join('\n')}
DROP TABLE IF EXISTS temp.metrics_rebuild;
CREATE TEMP TABLE metrics_rebuild (
  id INTEGER PRIMARY KEY, link INTEGER, prev_link INTEGER, fcs INTEGER, run_id INTEGER,
  chain INTEGER, prev_tool TEXT, size_bucket INTEGER
);
INSERT INTO temp.metrics_rebuild
WITH a AS (
  SELECT id, project_id, session_id, tool_name, started_ms, args_hash, outcome, is_empty, response_bytes,
         lead(started_ms) OVER g AS n_ms, lead(args_hash) OVER g AS n_hash,
         lag(started_ms) OVER g AS p_ms, lag(args_hash) OVER g AS p_hash,
         lag(tool_name) OVER s AS prev_tool
  FROM main.calls WHERE ${where}
  WINDOW g AS (PARTITION BY project_id, session_id, tool_name ORDER BY started_ms, id),
         s AS (PARTITION BY project_id, session_id ORDER BY started_ms, id)
), b AS (
  SELECT *, ${linkSql('started_ms', 'args_hash', 'n_ms', 'n_hash')} AS link,
            ${linkSql('p_ms', 'p_hash', 'started_ms', 'args_hash')} AS prev_link
  FROM a
), c AS (
  SELECT *, sum(prev_link = 0) OVER (PARTITION BY project_id, session_id, tool_name
                                     ORDER BY started_ms, id ROWS UNBOUNDED PRECEDING) AS run_no
  FROM b
)
SELECT id, link, prev_link, (outcome = 'ok' AND is_empty = 0 AND link <> 1),
       first_value(id) OVER r, max(link = 1) OVER r, prev_tool, ${SIZE_BUCKET_SQL('response_bytes')}
FROM c
WINDOW r AS (PARTITION BY project_id, session_id, tool_name, run_no ORDER BY started_ms, id
             ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING);
UPDATE main.calls SET link = r.link, prev_link = r.prev_link, fcs = r.fcs, run_id = r.run_id,
       chain = r.chain, prev_tool = r.prev_tool, size_bucket = r.size_bucket
FROM temp.metrics_rebuild r WHERE main.calls.id = r.id;
DROP TABLE temp.metrics_rebuild;
${tables.map((t) => FILLS[t]!(where)).join('\n')}
DELETE FROM metrics_dirty WHERE ${where};
`;
}
