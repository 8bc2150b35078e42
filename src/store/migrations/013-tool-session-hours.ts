/**
 * Migration 13: one tool's sessions by hour, instead of an index of the calls in tool order.
 *
 * `calls_by_tool_time` (project, tool, start, duration, client, session) served the reads of
 * one tool: its distinct sessions, its newest calls, its calls behind a number. But every call
 * went into it at one of as many places as the project has tools, so a flood's apply slices
 * dirtied a page per tool in it as well as the end of every other index: dropping it raised a
 * flood's sustained rate more than any other single change (issue 19, docs/benchmarks.md).
 *
 * `metrics_tool_session_hours` counts each tool's calls per (hour, session, client). It is a
 * coarse index of the tool's calls: the hours and sessions that hold them, newest first. A
 * tool's distinct sessions in whole hours are read from it alone; its calls are found by one
 * seek per (session, hour) in `calls_by_session` (project, session, start, id, tool, client),
 * whose entries name the tool, so no other tool's row is read. New calls touch their tool's
 * current hour: a few rows per slice, not one index entry per call.
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

DROP INDEX calls_by_tool_time;
DROP INDEX calls_by_time;
CREATE INDEX calls_by_time ON calls(project_id, started_ms);

${fillSql(TABLES)}
`;
