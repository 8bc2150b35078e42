/**
 * Migration 1: projects (one per ingest key), the ingest log (batches, rejections), startups
 * and calls. Every table is STRICT so a wrong type is an error, not a silent coercion.
 */
export const sql = /* sql */ `
CREATE TABLE projects (
  id            INTEGER PRIMARY KEY,
  key_sha256    TEXT    NOT NULL UNIQUE,  -- the key itself is never stored
  key_prefix    TEXT    NOT NULL,         -- first 12 characters, as the hosted API keeps
  first_seen_ms INTEGER NOT NULL,
  last_seen_ms  INTEGER NOT NULL
) STRICT;

-- Every POST to /v1/ingest, answered or refused, so nothing is dropped silently.
CREATE TABLE batches (
  id           INTEGER PRIMARY KEY,
  project_id   INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  received_ms  INTEGER NOT NULL,
  status       INTEGER NOT NULL,          -- the HTTP status we answered
  accepted     INTEGER NOT NULL,
  rejected     INTEGER NOT NULL,
  body_bytes   INTEGER NOT NULL,
  error        TEXT,                      -- whole-batch refusal message
  user_agent   TEXT
) STRICT;
CREATE INDEX batches_by_time ON batches(received_ms);

-- Items dropped one by one from an otherwise accepted batch (or a refused batch's reason).
CREATE TABLE rejections (
  id           INTEGER PRIMARY KEY,
  batch_id     INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
  project_id   INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  received_ms  INTEGER NOT NULL,
  item_index   INTEGER,                   -- position in the batch; NULL for a whole-batch refusal
  reason       TEXT    NOT NULL,          -- dotted path + message, as production would say
  item         TEXT    NOT NULL,          -- the item as JSON, truncated to a few KB
  truncated    INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX rejections_by_time ON rejections(received_ms);

CREATE TABLE startups (
  id           INTEGER PRIMARY KEY,       -- arrival order
  project_id   INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  batch_id     INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
  session_id   TEXT    NOT NULL,
  client_name  TEXT    NOT NULL,
  received_ms  INTEGER NOT NULL,
  extra        TEXT                       -- unknown fields (newer SDKs), as JSON
) STRICT;
CREATE INDEX startups_by_project ON startups(project_id, id);

CREATE TABLE startup_tools (
  startup_id   INTEGER NOT NULL REFERENCES startups(id) ON DELETE CASCADE,
  position     INTEGER NOT NULL,
  name         TEXT    NOT NULL,
  schema_bytes INTEGER NOT NULL,
  extra        TEXT,
  PRIMARY KEY (startup_id, position)
) STRICT;

CREATE TABLE calls (
  id             INTEGER PRIMARY KEY,     -- arrival order: the tiebreak for equal started_ms
  project_id     INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  batch_id       INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
  session_id     TEXT    NOT NULL,
  client_name    TEXT    NOT NULL,
  tool_name      TEXT    NOT NULL,
  started_at     TEXT    NOT NULL,        -- exactly as sent
  started_ms     INTEGER NOT NULL,        -- UTC epoch milliseconds
  duration_ms    INTEGER NOT NULL,
  outcome        TEXT    NOT NULL CHECK (outcome IN ('ok', 'bad_args', 'tool_error', 'crashed')),
  response_bytes INTEGER NOT NULL,
  is_empty       INTEGER NOT NULL CHECK (is_empty IN (0, 1)),
  args_hash      TEXT    NOT NULL,
  received_ms    INTEGER NOT NULL,
  extra          TEXT                     -- unknown fields, as JSON, so an export replays them
) STRICT;
CREATE INDEX calls_by_session ON calls(project_id, session_id, started_ms, id);
CREATE INDEX calls_by_time ON calls(project_id, started_ms);

CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL                      -- JSON
) STRICT;
`;
