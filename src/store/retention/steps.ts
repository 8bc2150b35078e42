/**
 * The transactions a retention pass is made of. Each deletes at most `chunkRows` rows, so the
 * ingest transaction waiting behind one waits milliseconds, never for the whole pass.
 */
import type Database from 'better-sqlite3';
import { createCallForgetter } from '../metrics/forget.js';
import { createRunPlanner, type CallsPass } from './plan.js';
import type { TallyDeleted } from './totals.js';

/** What one calls transaction deleted. */
export interface CallsStep {
  /** Calls deleted; 0 means the calls are within both caps and the pass moves on. */
  calls: number;
  /** A run was cut without a quiet 30 s (see PassReport.forced_cuts). */
  forced: boolean;
}

/** The step functions of a pass; see {@link createRetentionSteps}. */
export interface RetentionSteps {
  /** Deletes the next calls: whole runs of one or more sessions, ≤ `limit` (≤ `chunkRows`) in all. */
  calls(pass: CallsPass, limit?: number): CallsStep;
  /** Deletes up to `chunkRows` old startups, never the latest of a project. */
  startups(cutoff: number): number;
  /** Deletes up to `chunkRows` old rejected items. */
  rejections(cutoff: number): number;
  /** Deletes up to `chunkRows` agreement verdicts received before the cutoff. */
  agreements(cutoff: number): number;
  /** Deletes childless batches among the next `chunkRows` old ones; `more` until done. */
  batches(pass: { cutoff: number; batchCursor: number }): { deleted: number; more: boolean };
}

/**
 * Prepares the statements of every step for `db`. Each step adds what it deleted to the file's
 * totals through `tally`, in the same transaction.
 */
export function createRetentionSteps(
  db: Database.Database,
  chunkRows: number,
  tally: TallyDeleted,
): RetentionSteps {
  const planner = createRunPlanner(db, chunkRows);
  // The metrics engine's own hook keeps every derived fact and rollup exact in the same
  // transaction; only a forced cut leaving a very long run sends the project to the rebuild.
  const forgetter = createCallForgetter(db);

  const calls = db.transaction((pass: CallsPass, limit?: number): CallsStep => {
    const step = planner.next(pass, limit); // counts the calls it plans off pass.overBy
    if (!step) return { calls: 0, forced: false };
    const { calls: n } = forgetter.forget(step.ids);
    tally('calls', n);
    return { calls: n, forced: step.forced };
  });

  const oldStartups = db.prepare<[number, number], { id: number }>(
    `SELECT s.id FROM startups s WHERE s.received_ms < ?
       AND s.id < (SELECT max(l.id) FROM startups l WHERE l.project_id = s.project_id)
     ORDER BY s.id LIMIT ?`,
  );
  const deleteStartup = db.prepare<[number]>('DELETE FROM startups WHERE id = ?');
  const startups = db.transaction((cutoff: number): number => {
    const ids = oldStartups.all(cutoff, chunkRows);
    for (const { id } of ids) deleteStartup.run(id);
    tally('startups', ids.length);
    return ids.length;
  });

  const deleteRejections = db.prepare<[number, number]>(
    'DELETE FROM rejections WHERE id IN (SELECT id FROM rejections WHERE received_ms < ? ORDER BY received_ms LIMIT ?)',
  );
  const rejections = db.transaction((cutoff: number): number => {
    const n = deleteRejections.run(cutoff, chunkRows).changes;
    tally('rejections', n);
    return n;
  });

  const deleteAgreements = db.prepare<[number, number]>(
    'DELETE FROM agreements WHERE id IN (SELECT id FROM agreements WHERE received_ms < ? ORDER BY received_ms LIMIT ?)',
  );
  const agreements = db.transaction((cutoff: number): number => {
    const n = deleteAgreements.run(cutoff, chunkRows).changes;
    tally('agreements', n);
    return n;
  });
  // Verdicts the age step has not reached (a pass stopped half-way) still pin their batch.
  const agreementBatchesBefore = db.prepare<[number], { b: number }>(
    'SELECT DISTINCT batch_id AS b FROM agreements WHERE received_ms < ?',
  );

  const batchesAfter = db.prepare<[number, number], { id: number; received_ms: number }>(
    'SELECT id, received_ms FROM batches WHERE id > ? ORDER BY id LIMIT ?',
  );
  const firstCallPast = db.prepare<[number], { id: number }>(
    'SELECT id FROM calls WHERE batch_id > ? ORDER BY id LIMIT 1',
  );
  const callBatchesBelow = db.prepare<[number], { b: number }>(
    'SELECT DISTINCT batch_id AS b FROM calls WHERE id < ?',
  );
  const firstStartupPast = db.prepare<[number], { id: number }>(
    'SELECT id FROM startups WHERE batch_id > ? ORDER BY id LIMIT 1',
  );
  const startupBatchesBelow = db.prepare<[number], { b: number }>(
    'SELECT DISTINCT batch_id AS b FROM startups WHERE id < ?',
  );
  const rejectionBatchesBefore = db.prepare<[number], { b: number }>(
    'SELECT DISTINCT batch_id AS b FROM rejections WHERE received_ms < ?',
  );
  const deleteBatch = db.prepare<[number]>('DELETE FROM batches WHERE id = ?');

  /**
   * Batches are the parent of calls, startups and rejections, which have no index on
   * `batch_id`: with foreign keys on, every deleted batch would scan all calls. Instead this
   * uses arrival order — row ids of batches, calls and startups all grow together, so the
   * children of batches up to B are the rows before the first one past B — to find which old
   * batches still have children (a kept startup, a run that straddles the cutoff), and deletes
   * the rest with the (per-connection) foreign-key check off. Cost: the remaining rows older
   * than the candidates, which retention itself keeps few.
   */
  function batches(pass: { cutoff: number; batchCursor: number }): {
    deleted: number;
    more: boolean;
  } {
    const candidates: number[] = [];
    for (const b of batchesAfter.all(pass.batchCursor, chunkRows)) {
      if (b.received_ms >= pass.cutoff) break;
      candidates.push(b.id);
    }
    if (candidates.length === 0) return { deleted: 0, more: false };
    const more = candidates.length === chunkRows;
    const last = candidates.at(-1)!;
    const pinned = new Set<number>();
    const callEnd = firstCallPast.get(last)?.id ?? Number.MAX_SAFE_INTEGER;
    for (const { b } of callBatchesBelow.all(callEnd)) pinned.add(b);
    const startupEnd = firstStartupPast.get(last)?.id ?? Number.MAX_SAFE_INTEGER;
    for (const { b } of startupBatchesBelow.all(startupEnd)) pinned.add(b);
    for (const { b } of rejectionBatchesBefore.all(pass.cutoff)) pinned.add(b);
    for (const { b } of agreementBatchesBefore.all(pass.cutoff)) pinned.add(b);
    pass.batchCursor = last;
    db.pragma('foreign_keys = OFF');
    try {
      const deleted = db.transaction(() => {
        let n = 0;
        for (const id of candidates) if (!pinned.has(id)) n += deleteBatch.run(id).changes;
        tally('batches', n);
        return n;
      })();
      return { deleted, more };
    } finally {
      db.pragma('foreign_keys = ON');
    }
  }

  return { calls, startups, rejections, agreements, batches };
}
