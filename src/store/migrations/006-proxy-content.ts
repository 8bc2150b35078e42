/**
 * Migration 6: what the proxy keeps on this machine beside telemetry (src/shared/proxy-content.ts):
 * every JSON-RPC message it relayed, what client and server said at `initialize`, and the
 * requests left unanswered when a session ended cleanly. Keyed by project and session like
 * calls, and removed with the project (retention and clear-all remove them with their calls).
 */
export const sql = /* sql */ `
CREATE TABLE proxy_messages (
  id              INTEGER PRIMARY KEY,      -- arrival order; bodies stay out of the key's b-tree
  project_id      INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  session_id      TEXT    NOT NULL,
  seq             INTEGER NOT NULL CHECK (seq >= 0),
  direction       TEXT    NOT NULL CHECK (direction IN ('client', 'server')),
  at_ms           REAL    NOT NULL,         -- when the proxy saw it, epoch ms (fractions kept)
  method          TEXT,
  rpc_id          TEXT,                     -- the JSON-RPC id as JSON text; NULL for a notification
  kind            TEXT    NOT NULL CHECK (kind IN ('request', 'result', 'error', 'notification')),
  body            TEXT    NOT NULL,         -- redacted by the proxy, cut to 256 KB when truncated
  truncated       INTEGER NOT NULL CHECK (truncated IN (0, 1)),
  bytes           INTEGER NOT NULL CHECK (bytes >= 0),   -- original size, before redaction and cut
  call_started_at TEXT,                     -- the started_at of the call payload it belongs to
  received_ms     INTEGER NOT NULL
) STRICT;
-- One message per (session, seq): a proxy retrying a post stores nothing twice.
CREATE UNIQUE INDEX proxy_messages_by_seq ON proxy_messages(project_id, session_id, seq);
-- A stored call finds its request and answer by its session and started_at.
CREATE INDEX proxy_messages_by_call ON proxy_messages(project_id, session_id, call_started_at)
  WHERE call_started_at IS NOT NULL;
CREATE INDEX proxy_messages_by_received ON proxy_messages(received_ms);

CREATE TABLE proxy_sessions (
  project_id          INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  session_id          TEXT    NOT NULL,
  protocol_version    TEXT,
  transport           TEXT    NOT NULL CHECK (transport IN ('stdio', 'http')),
  client_name         TEXT,
  client_version      TEXT,
  client_capabilities TEXT,                 -- JSON, as sent
  server_name         TEXT,
  server_version      TEXT,
  server_capabilities TEXT,                 -- JSON, as sent
  server_instructions TEXT,
  received_ms         INTEGER NOT NULL,
  PRIMARY KEY (project_id, session_id)
) STRICT;
CREATE INDEX proxy_sessions_by_received ON proxy_sessions(received_ms);

CREATE TABLE proxy_unanswered (
  project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  session_id  TEXT    NOT NULL,
  rpc_id      TEXT    NOT NULL,
  method      TEXT    NOT NULL,
  tool_name   TEXT,                         -- for tools/call, the tool asked for
  sent_at_ms  REAL    NOT NULL,
  received_ms INTEGER NOT NULL,
  PRIMARY KEY (project_id, session_id, rpc_id)
) STRICT;
CREATE INDEX proxy_unanswered_by_received ON proxy_unanswered(received_ms);
`;
