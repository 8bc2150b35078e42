/**
 * Migration 8: rollups by hour and by day that let any time range be answered without reading
 * the calls in it (docs/metrics.md, "Time ranges"). A range splits into whole UTC days, whole
 * hours at its edges and at most two partial hours; only the partial hours are read raw, so
 * the last 7 days of ten million calls read tens of thousands of rollup rows, not 2.3 million
 * calls.
 *
 * - `metrics_hour_stats`: `metrics_daily`'s stat rows by hour (the summary's edge hours).
 * - `metrics_latency_days` / `metrics_latency_hours`: fine latency buckets per tool, with the
 *   sum of their durations, by day and by hour: where a range's percentile ranks fall, and the
 *   duration histogram's counts and sums. The hourly table also keeps all tools together
 *   (`tool_name` ''), which a time series' p95 per bucket reads.
 * - `metrics_session_hours`: the sessions with calls in each hour (distinct sessions of a
 *   range).
 *
 * `metrics_latency_hourly` (octaves per hour, all tools) is replaced by the '' rows of
 * `metrics_latency_hours`, whose finer buckets make a time bucket's exact p95 cheaper to read.
 */
import { fillSql } from '../metrics/sql.js';

/** The tables this migration adds, backfilled from the calls' stored facts. */
export const TABLES = [
  'metrics_hour_stats',
  'metrics_latency_days',
  'metrics_latency_hours',
  'metrics_session_hours',
];

export const sql = /* sql */ `
CREATE TABLE metrics_hour_stats (
  project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  hour_ms     INTEGER NOT NULL,
  tool_name   TEXT    NOT NULL,
  client_name TEXT    NOT NULL,
  oc          INTEGER NOT NULL,
  link        INTEGER NOT NULL,
  head        INTEGER NOT NULL,
  calls       INTEGER NOT NULL,
  units       INTEGER NOT NULL,
  duration    INTEGER NOT NULL,
  l0          INTEGER NOT NULL,
  l1          INTEGER NOT NULL,
  l2          INTEGER NOT NULL,
  l3          INTEGER NOT NULL,
  PRIMARY KEY (project_id, hour_ms, tool_name, client_name, oc, link, head)
) STRICT, WITHOUT ROWID;

CREATE TABLE metrics_latency_days (
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  tool_name  TEXT    NOT NULL,
  day_ms     INTEGER NOT NULL,
  bucket     INTEGER NOT NULL,
  n          INTEGER NOT NULL,
  ms         INTEGER NOT NULL,
  PRIMARY KEY (project_id, tool_name, day_ms, bucket)
) STRICT, WITHOUT ROWID;

CREATE TABLE metrics_latency_hours (
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  tool_name  TEXT    NOT NULL,
  hour_ms    INTEGER NOT NULL,
  bucket     INTEGER NOT NULL,
  n          INTEGER NOT NULL,
  ms         INTEGER NOT NULL,
  PRIMARY KEY (project_id, tool_name, hour_ms, bucket)
) STRICT, WITHOUT ROWID;

CREATE TABLE metrics_session_hours (
  project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  hour_ms     INTEGER NOT NULL,
  session_id  TEXT    NOT NULL,
  client_name TEXT    NOT NULL,
  calls       INTEGER NOT NULL,
  PRIMARY KEY (project_id, hour_ms, session_id, client_name)
) STRICT, WITHOUT ROWID;

DROP TABLE metrics_latency_hourly;

${fillSql(TABLES)}
`;
