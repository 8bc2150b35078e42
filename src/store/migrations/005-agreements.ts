/**
 * Migration 5: agreement verdicts (PHP SDK 0.1.6 `type: "agreement"`, a port of the TypeScript
 * SDK's cross-tool agreement check) — two tools returned one declared field, and the SDK says
 * whether the values agreed. Only the verdict is sent, so only the verdict is stored. Also an
 * index to read the per-tool fingerprints the same SDK adds to its startups.
 */
export const sql = /* sql */ `
CREATE TABLE agreements (
  id          INTEGER PRIMARY KEY,          -- arrival order
  project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  batch_id    INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
  session_id  TEXT    NOT NULL,
  field       TEXT    NOT NULL,             -- the declared field's canonical name
  tool_a      TEXT    NOT NULL,             -- the tool that reported the field first
  tool_b      TEXT    NOT NULL,             -- the tool compared against it
  agreed      INTEGER NOT NULL CHECK (agreed IN (0, 1)),
  checked_at  TEXT    NOT NULL,             -- exactly as sent
  checked_ms  INTEGER NOT NULL,             -- UTC epoch milliseconds
  window_ms   INTEGER CHECK (window_ms IS NULL OR window_ms > 0),
  received_ms INTEGER NOT NULL,
  extra       TEXT,                         -- unknown fields, as JSON, so an export replays them
  CHECK (tool_a <> tool_b)
) STRICT;
CREATE INDEX agreements_by_time ON agreements(project_id, checked_ms);
CREATE INDEX agreements_by_session ON agreements(project_id, session_id, id);
-- Retention deletes by age and pins the batches of what is left.
CREATE INDEX agreements_by_received ON agreements(received_ms);

-- A tool's fingerprints across startups (schema_hash, description_hash, policy: newer SDKs'
-- per-tool extra fields). Partial: tools without extra fields, most of them, cost nothing.
CREATE INDEX startup_tools_with_extra ON startup_tools(name, startup_id) WHERE extra IS NOT NULL;
`;
