/**
 * Migration 4: the ingest spool (src/store/spool.ts).
 *
 * When SDKs send faster than the metrics engine maintains derived facts, an acknowledged
 * request waits here — its raw body, exactly as received, plus who sent it and when — until
 * the server applies it (validate again, store, maintain) moments later. A row exists only
 * between the acknowledgement and the transaction that applies and deletes it, so nothing in
 * it is ever counted twice or lost to a crash. No index: rows are read and deleted in id order.
 */
export const sql = /* sql */ `
CREATE TABLE spool (
  id INTEGER PRIMARY KEY,
  received_ms INTEGER NOT NULL,
  key_sha256 TEXT NOT NULL,
  key_prefix TEXT NOT NULL,
  user_agent TEXT,
  payloads INTEGER NOT NULL CHECK (payloads >= 0),
  body BLOB NOT NULL
) STRICT;
`;
