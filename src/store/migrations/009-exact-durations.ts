/**
 * Migration 9: exact durations per tool in rollups by day and by hour, instead of an index of
 * the calls in duration order.
 *
 * `calls_by_tool_duration` (project, tool, duration, …) served the exact percentiles: the calls
 * of the one fine bucket holding a rank, read in duration order. But a new call lands at a
 * random place in that index — anywhere in its tool's whole history — so every call dirtied a
 * page of its own: at a million calls, 71% of the distinct pages an apply slice wrote were
 * that index's (issue 19, docs/benchmarks-history.md). Durations repeat: one tool, in one day,
 * takes a few thousand distinct values at most. So:
 *
 * - `metrics_duration_days` and `metrics_duration_hours` count each tool's calls per (day or
 *   hour, duration in ms). A fine bucket's exact values over any whole hours are read with one
 *   index seek per day and per edge hour; all time is every day of the tool. New calls touch
 *   only their tool's current day and hour, a few pages each.
 * - `calls_by_tool_time` (project, tool, start, …) replaces the index for reads of one tool's
 *   calls: new entries go at the end of their tool's range, as in `calls_by_time`.
 */
import { fillSql } from '../metrics/sql.js';

/** The tables this migration adds, backfilled from the calls' stored facts. */
export const TABLES = ['metrics_duration_days', 'metrics_duration_hours'];

const table = (name: string, timeCol: string): string => `
CREATE TABLE ${name} (
  project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  tool_name   TEXT    NOT NULL,
  ${timeCol.padEnd(11)} INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  n           INTEGER NOT NULL,
  PRIMARY KEY (project_id, tool_name, ${timeCol}, duration_ms)
) STRICT, WITHOUT ROWID;`;

export const sql = /* sql */ `
${table('metrics_duration_days', 'day_ms')}
${table('metrics_duration_hours', 'hour_ms')}

DROP INDEX calls_by_tool_duration;
-- One tool's calls in time order, covering what its reads need (as calls_by_time does).
CREATE INDEX calls_by_tool_time ON calls(project_id, tool_name, started_ms, duration_ms, client_name, session_id);

${fillSql(TABLES)}
`;
