/**
 * Migration 13: one narrow time index, and one tool's sessions by hour instead of an index of
 * the calls in tool order.
 *
 * Applying a call wrote it into four indexes. Two were wide: `calls_by_time` (project, start,
 * tool, duration, client, session) and `calls_by_tool_time` (project, tool, start, …), the
 * second at one of as many places as the project has tools. Together they were the dearest
 * part of a flood's apply slices — pages dirtied, written to the WAL, checkpointed: this
 * migration raised a flood's sustained rate from 25–29% of the bare baseline to 28–36%
 * (median 33%; issue 19, docs/benchmarks-history.md). Time ranges read rollups for their whole hours, so the raw reads left
 * are a range's partial hours: `calls_by_time` is (project, start) again, each row looked up.
 *
 * `metrics_tool_session_hours` counts each tool's calls per (hour, session, client). It is a
 * coarse index of the tool's calls: the hours and sessions that hold them. A tool's distinct
 * sessions are read from it alone; its calls are found by one seek per (session, hour) in
 * `calls_by_session` (project, session, start, id, tool, client), whose entries name the
 * tool, so no other tool's row is read from the table. New calls touch their tool's current
 * hour: a few rows per slice, not one index entry per call. `metrics_hour_stats` gets an index
 * by tool, so a tool's time series reads its own hourly rows.
 */
import { fillSql } from '../metrics/sql.js';

/** The tables this migration adds, backfilled from the calls' stored facts. */
export const TABLES = ['metrics_tool_session_hours'];

export const sql = /* sql */ `
CREATE TABLE metrics_tool_session_hours (
  project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  tool_name   TEXT    NOT NULL,
  hour_ms     INTEGER NOT NULL,
  session_id  TEXT    NOT NULL,
  client_name TEXT    NOT NULL,
  calls       INTEGER NOT NULL,
  PRIMARY KEY (project_id, tool_name, hour_ms, session_id, client_name)
) STRICT, WITHOUT ROWID;

-- A tool's stat rows by hour, for its time series (the rows are keyed by hour first).
CREATE INDEX metrics_hour_stats_by_tool ON metrics_hour_stats(project_id, tool_name, hour_ms);

DROP INDEX calls_by_tool_time;
DROP INDEX calls_by_time;
CREATE INDEX calls_by_time ON calls(project_id, started_ms);

${fillSql(TABLES)}
`;
