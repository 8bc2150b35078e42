/**
 * Migration 2: the metrics engine's derived per-call columns, rollups and indexes, then a
 * backfill of everything already stored (docs/metrics.md).
 *
 * Per-call facts are kept exact at ingest (src/store/derived.ts) so no query recomputes retries
 * with window functions: `link`/`prev_link` (0 none, 1 retry, 2 repeat, 3 unknown) to the
 * next/from the previous same-tool call in the session, `fcs`, `run_id` (first call of the
 * ≤ 30 s run), `chain` (the run holds a retry), `prev_tool` (for tool pairs), `size_bucket`.
 */
import { rebuildSql } from '../metrics/sql.js';

export const sql = /* sql */ `
ALTER TABLE calls ADD COLUMN link INTEGER NOT NULL DEFAULT 0 CHECK (link BETWEEN 0 AND 3);
ALTER TABLE calls ADD COLUMN prev_link INTEGER NOT NULL DEFAULT 0 CHECK (prev_link BETWEEN 0 AND 3);
ALTER TABLE calls ADD COLUMN fcs INTEGER NOT NULL DEFAULT 0 CHECK (fcs IN (0, 1));
ALTER TABLE calls ADD COLUMN run_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE calls ADD COLUMN chain INTEGER NOT NULL DEFAULT 0 CHECK (chain IN (0, 1));
ALTER TABLE calls ADD COLUMN prev_tool TEXT;
ALTER TABLE calls ADD COLUMN size_bucket INTEGER NOT NULL DEFAULT 0;

-- Same-tool neighbours in session order; also answers "distinct sessions" under any filter.
CREATE INDEX calls_by_session_tool ON calls(project_id, session_id, tool_name, started_ms, id, client_name);
-- Exact percentiles of one tool: the calls inside one fine latency bucket, in duration order.
CREATE INDEX calls_by_tool_duration ON calls(project_id, tool_name, duration_ms, started_ms, client_name, session_id);
-- Every member of a retry chain, by chain (run) id.
CREATE INDEX calls_chain_members ON calls(run_id, started_ms, id) WHERE chain = 1;
-- Time ranges (same leading columns as 001's calls_by_time, which it replaces), covering the
-- tool, duration, client and session so filtered percentiles and session counts never touch
-- the table. With calls_by_tool_duration, any tool or time filter reads one index range.
DROP INDEX calls_by_time;
CREATE INDEX calls_by_time ON calls(project_id, started_ms, tool_name, duration_ms, client_name, session_id);
CREATE INDEX startups_by_session ON startups(project_id, session_id, id);

-- Rollups below keep daily rows (day_ms = start of the UTC day) and all-time twins
-- (day_ms = -1), so an all-time view reads a few thousand rows whatever the data size.

-- By tool, client, outcome class (0 ok, 1 empty, 2 bad_args, 3 tool_error,
-- 4 crashed), link and chain head. Rows are adjusted when a late call changes a neighbour.
CREATE TABLE metrics_daily (
  project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  day_ms      INTEGER NOT NULL,
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
  PRIMARY KEY (project_id, day_ms, tool_name, client_name, oc, link, head)
) STRICT, WITHOUT ROWID;

-- One row per session and client: the sessions list without scanning calls.
CREATE TABLE metrics_sessions (
  project_id    INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  session_id    TEXT    NOT NULL,
  client_name   TEXT    NOT NULL,
  first_ms      INTEGER NOT NULL,
  last_ms       INTEGER NOT NULL,
  last_end_ms   INTEGER NOT NULL,
  calls         INTEGER NOT NULL,
  ok            INTEGER NOT NULL,
  empty         INTEGER NOT NULL,
  bad_args      INTEGER NOT NULL,
  tool_error    INTEGER NOT NULL,
  crashed       INTEGER NOT NULL,
  fcs           INTEGER NOT NULL,
  retries       INTEGER NOT NULL,
  repeats       INTEGER NOT NULL,
  unknown_links INTEGER NOT NULL,
  chains        INTEGER NOT NULL,
  units         INTEGER NOT NULL,
  duration      INTEGER NOT NULL,
  slow          INTEGER NOT NULL,
  PRIMARY KEY (project_id, session_id, client_name)
) STRICT, WITHOUT ROWID;
CREATE INDEX metrics_sessions_by_last ON metrics_sessions(project_id, last_ms);

-- Consecutive calls A→B (A ≠ B) in a session, counted on B's day and client.
CREATE TABLE metrics_pairs (
  project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  day_ms      INTEGER NOT NULL,
  client_name TEXT    NOT NULL,
  from_tool   TEXT    NOT NULL,
  to_tool     TEXT    NOT NULL,
  n           INTEGER NOT NULL,
  PRIMARY KEY (project_id, day_ms, client_name, from_tool, to_tool)
) STRICT, WITHOUT ROWID;

-- Response sizes by log bucket.
CREATE TABLE metrics_sizes (
  project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  day_ms      INTEGER NOT NULL,
  tool_name   TEXT    NOT NULL,
  client_name TEXT    NOT NULL,
  bucket      INTEGER NOT NULL,
  n           INTEGER NOT NULL,
  units       INTEGER NOT NULL,
  PRIMARY KEY (project_id, day_ms, tool_name, client_name, bucket)
) STRICT, WITHOUT ROWID;

-- Fine latency buckets (exact < 32 ms, then 16 per doubling), all-time, per tool and for all
-- tools (tool_name ''): where a percentile's rank falls, before reading that bucket exactly.
CREATE TABLE metrics_latency (
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  tool_name  TEXT    NOT NULL,
  bucket     INTEGER NOT NULL,
  n          INTEGER NOT NULL,
  PRIMARY KEY (project_id, tool_name, bucket)
) STRICT, WITHOUT ROWID;

-- All-time count per exact duration (all tools): the exact value inside a bucket.
CREATE TABLE metrics_durations (
  project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  duration_ms INTEGER NOT NULL,
  n           INTEGER NOT NULL,
  PRIMARY KEY (project_id, duration_ms)
) STRICT, WITHOUT ROWID;

-- Hourly series without tool or client: hours compose into the viewer's local days.
CREATE TABLE metrics_hourly (
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  hour_ms    INTEGER NOT NULL,
  oc         INTEGER NOT NULL,
  link       INTEGER NOT NULL,
  calls      INTEGER NOT NULL,
  units      INTEGER NOT NULL,
  PRIMARY KEY (project_id, hour_ms, oc, link)
) STRICT, WITHOUT ROWID;

-- Latency octaves (bit length of the duration) per hour, all tools: where each time bucket's
-- p95 rank falls, before reading that octave's calls in the bucket exactly.
CREATE TABLE metrics_latency_hourly (
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  hour_ms    INTEGER NOT NULL,
  bucket     INTEGER NOT NULL,
  n          INTEGER NOT NULL,
  PRIMARY KEY (project_id, hour_ms, bucket)
) STRICT, WITHOUT ROWID;

-- One row per retry chain, keyed by its first call (client and time are the first call's).
CREATE TABLE metrics_chains (
  run_id        INTEGER PRIMARY KEY,
  project_id    INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  session_id    TEXT    NOT NULL,
  tool_name     TEXT    NOT NULL,
  client_name   TEXT    NOT NULL,
  first_ms      INTEGER NOT NULL,
  last_ms       INTEGER NOT NULL,
  last_end_ms   INTEGER NOT NULL,
  calls         INTEGER NOT NULL,
  retries       INTEGER NOT NULL,
  repeats       INTEGER NOT NULL,
  unknown_links INTEGER NOT NULL,
  resolved      INTEGER NOT NULL,
  tail_id       INTEGER NOT NULL
) STRICT;
CREATE INDEX metrics_chains_by_time ON metrics_chains(project_id, first_ms);
CREATE INDEX metrics_chains_by_tool ON metrics_chains(project_id, tool_name, resolved, first_ms, client_name);
CREATE INDEX metrics_chains_by_session ON metrics_chains(project_id, session_id, first_ms);

-- Each startup's tool count and total schema size (kept by trigger as its tools are written).
CREATE TABLE metrics_startup_totals (
  startup_id   INTEGER PRIMARY KEY REFERENCES startups(id) ON DELETE CASCADE,
  tools        INTEGER NOT NULL,
  schema_bytes INTEGER NOT NULL
) STRICT;
CREATE TRIGGER metrics_startup_tool_added AFTER INSERT ON startup_tools BEGIN
  INSERT INTO metrics_startup_totals (startup_id, tools, schema_bytes) VALUES (new.startup_id, 1, new.schema_bytes)
  ON CONFLICT (startup_id) DO UPDATE SET tools = tools + 1, schema_bytes = schema_bytes + excluded.schema_bytes;
END;
INSERT INTO metrics_startup_totals (startup_id, tools, schema_bytes)
SELECT startup_id, count(*), sum(schema_bytes) FROM startup_tools GROUP BY startup_id;

-- Projects whose derived data must be rebuilt because calls were deleted (clear, retention):
-- the next write or metrics read rebuilds them exactly.
CREATE TABLE metrics_dirty (project_id INTEGER PRIMARY KEY) STRICT;
CREATE TRIGGER metrics_calls_deleted AFTER DELETE ON calls BEGIN
  INSERT OR IGNORE INTO metrics_dirty (project_id) VALUES (old.project_id);
END;

${rebuildSql(undefined, 2)}
`;
