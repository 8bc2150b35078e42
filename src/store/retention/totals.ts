/**
 * What retention has deleted since the data began (migration 012): each step adds its count in
 * its own transaction, so the calls stored plus the calls retention deleted always equal the
 * calls applied — a gap between what was acknowledged and what is stored is never a mystery.
 */
import type Database from 'better-sqlite3';
import { hasTable } from '../has-table.js';
import type { DeletedCounts } from './runner.js';

/** Kinds of row retention deletes, as counted. */
export type DeletedKind = keyof DeletedCounts;

/** Nothing deleted: a pass's counts before its first step, and a file's before its first pass. */
export const noneDeleted = (): DeletedCounts => ({
  calls: 0,
  startups: 0,
  batches: 0,
  rejections: 0,
  agreements: 0,
  content: 0,
});

const KINDS = Object.keys(noneDeleted()) as DeletedKind[];

/** Everything retention deleted from this file (since it was created or last cleared). */
export interface RetentionTotals {
  deleted: DeletedCounts;
  /** When retention first deleted anything; null when it never has. */
  since_ms: number | null;
  /** When it last deleted anything; null when it never has. */
  last_ms: number | null;
}

/** Adds a step's deletions to the file's totals; call inside the step's transaction. */
export type TallyDeleted = (kind: DeletedKind, rows: number) => void;

/**
 * Prepares the tally for `db`. On a file opened without migration 012 (read-only tools on an
 * older file) it counts nothing.
 */
export function createTally(db: Database.Database, now: () => number = Date.now): TallyDeleted {
  if (!hasTable(db, 'retention_deleted')) return () => {};
  const add = db.prepare<[string, number, number, number]>(
    `INSERT INTO retention_deleted (kind, rows, first_ms, last_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (kind) DO UPDATE SET rows = rows + excluded.rows, last_ms = excluded.last_ms`,
  );
  return (kind, rows) => {
    if (rows <= 0) return;
    const at = now();
    add.run(kind, rows, at, at);
  };
}

/** Reads the file's totals (all zero on a file without migration 012). */
export function readRetentionTotals(db: Database.Database): RetentionTotals {
  const deleted = noneDeleted();
  const totals: RetentionTotals = { deleted, since_ms: null, last_ms: null };
  if (!hasTable(db, 'retention_deleted')) return totals;
  const rows = db
    .prepare<[], { kind: string; rows: number; first_ms: number; last_ms: number }>(
      'SELECT kind, rows, first_ms, last_ms FROM retention_deleted',
    )
    .all();
  for (const r of rows) {
    if (!(KINDS as readonly string[]).includes(r.kind)) continue;
    deleted[r.kind as DeletedKind] = r.rows;
    totals.since_ms = Math.min(totals.since_ms ?? r.first_ms, r.first_ms);
    totals.last_ms = Math.max(totals.last_ms ?? r.last_ms, r.last_ms);
  }
  return totals;
}
