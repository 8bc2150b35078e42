/** SQL fragments every metrics query shares: filter conditions and computed columns. */
import type { Span } from '../../../metrics/time.js';
import type { CallFilter } from '../../../shared/rows.js';
import { ALL_TIME } from '../sql.js';

/** Named parameters of a metrics statement. */
export type Params = Record<string, string | number>;

/** WHERE parts for one table. `time` names its millisecond column (raw or day-aligned). */
export function conditions(
  f: CallFilter,
  cols: { time?: string; tool?: string; client?: string; session?: string; alias?: string },
  span: Span = { from: f.from, to: f.to },
): { sql: string; params: Params } {
  const a = cols.alias ? `${cols.alias}.` : '';
  const parts: string[] = [`${a}project_id = @projectId`];
  const params: Params = {};
  if (cols.time && span.from !== undefined) {
    parts.push(`${a}${cols.time} >= @from`);
    params.from = span.from;
  }
  if (cols.time && span.to !== undefined) {
    parts.push(`${a}${cols.time} < @to`);
    params.to = span.to;
  }
  if (f.tool !== undefined && cols.tool) {
    parts.push(`${a}${cols.tool} = @tool`);
    params.tool = f.tool;
  }
  if (f.client !== undefined && cols.client) {
    parts.push(`${a}${cols.client} = @client`);
    params.client = f.client;
  }
  if (f.session !== undefined && cols.session) {
    parts.push(`${a}${cols.session} = @session`);
    params.session = f.session;
  }
  return { sql: parts.join(' AND '), params };
}

/** The filter columns of the raw `calls` table. */
export const RAW = {
  time: 'started_ms',
  tool: 'tool_name',
  client: 'client_name',
  session: 'session_id',
};

/** WHERE parts for a rollup: the all-time rows when the span is unbounded, else whole days. */
export function rollupConditions(
  f: CallFilter,
  cols: { tool?: string; client?: string },
  span: Span,
): { sql: string; params: Params } {
  const w = conditions(f, { ...cols, time: 'day_ms' }, span);
  const all = span.from === undefined && span.to === undefined;
  return { sql: `${w.sql} AND day_ms ${all ? '=' : '<>'} ${ALL_TIME}`, params: w.params };
}
/** Total schema size of a session's latest startup: NULL when it sent none. */
export const SCHEMA_OF_SESSION = (p: string, s: string) =>
  `(SELECT coalesce((SELECT m.schema_bytes FROM metrics_startup_totals m WHERE m.startup_id = st.id), 0)
     FROM startups st INDEXED BY startups_by_session WHERE st.project_id = ${p} AND st.session_id = ${s}
     ORDER BY st.id DESC LIMIT 1)`;

/** Bucket start of a millisecond column, for buckets of `widthMs` aligned at `offsetMs`. */
export const bucketSql = (col: string, widthMs: number, offsetMs: number): string =>
  `((${col} + ${offsetMs}) - ((((${col} + ${offsetMs}) % ${widthMs}) + ${widthMs}) % ${widthMs}) - ${offsetMs})`;

/**
 * How a read finds `metrics_hour_stats` rows: one tool's through its index by tool
 * (migration 013), any other range by the table's key (project, hour, …). Named, because
 * without statistics SQLite took the index by tool for reads of every tool — one seek on the
 * project, then the whole table (a summary of the last 24 hours at a million calls: 73 → 292 ms).
 */
export const hourStatsIndex = (f: CallFilter): string =>
  f.tool !== undefined
    ? 'INDEXED BY metrics_hour_stats_by_tool'
    : 'INDEXED BY sqlite_autoindex_metrics_hour_stats_1';
