/**
 * Migration 12: what retention has deleted, kept in the file.
 *
 * A pass reported only on itself, in memory (`last_pass`), so a count of calls lower than the
 * count acknowledged could not be told apart from loss once more than one pass had run — or
 * after a restart. Each step now adds what it deleted to this table in its own transaction, so
 * `stored + deleted by retention = acknowledged` holds exactly, at any moment, across restarts
 * (clear-all empties it with everything else: the count starts again with the data).
 *
 * One row per kind of row deleted (`calls`, `startups`, `batches`, `rejections`, `agreements`,
 * `content`), with when retention first and last deleted one.
 */
export const sql = /* sql */ `
CREATE TABLE retention_deleted (
  kind TEXT PRIMARY KEY,
  rows INTEGER NOT NULL CHECK (rows >= 0),
  first_ms INTEGER NOT NULL,
  last_ms INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
`;
