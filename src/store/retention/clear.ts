/**
 * Clear-all: every row of every table except `settings`, in one transaction — the user's
 * settings survive the data they configure.
 */
import { resetDerivedWatermark } from '../derived-queue.js';
import type { Store } from '../index.js';
import { connectionOf } from '../connection.js';
import { forgetTails } from '../metrics/maintain/tails.js';
import { forgetCallCount } from './call-count.js';

/** Rows removed by {@link clearAll}, by table (every table but `settings`, the raw ones named). */
export interface ClearReport {
  calls: number;
  startups: number;
  batches: number;
  rejections: number;
  [table: string]: number;
}

/**
 * Deletes every row of every table except `settings`, atomically. Triggers on those tables
 * (the metrics engine's deletion marker) are dropped and recreated inside the same
 * transaction, so SQLite can truncate each table instead of visiting every row; then the
 * file is compacted (VACUUM on what is left — nothing — is fast).
 */
export function clearAll(store: Store): ClearReport {
  const db = connectionOf(store);
  const tables = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'settings'",
    )
    .all()
    .map((t) => t.name);
  const triggers = db
    .prepare<[], { name: string; sql: string }>(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger'",
    )
    .all();
  const report: Record<string, number> = {};
  forgetTails(db);
  db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      for (const t of triggers) db.exec(`DROP TRIGGER "${t.name.replaceAll('"', '""')}"`);
      for (const name of tables) {
        const quoted = `"${name.replaceAll('"', '""')}"`;
        report[name] = db.prepare(`DELETE FROM ${quoted}`).run().changes;
      }
      for (const t of triggers) db.exec(t.sql);
      // Call ids start again at 1 in an empty table: the deferred-facts watermark must too
      // (its delete trigger was among those dropped above).
      resetDerivedWatermark(db);
    })();
  } finally {
    db.pragma('foreign_keys = ON');
    // Retention's kept count of the calls (./call-count.ts) is counted again: ids start at 1.
    forgetCallCount(db);
  }
  try {
    db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // Compaction is a nicety: the rows are gone either way, and freed pages are reused.
  }
  // The raw tables always exist; naming them gives callers their counts as numbers.
  const { calls = 0, startups = 0, batches = 0, rejections = 0 } = report;
  return { ...report, calls, startups, batches, rejections };
}
