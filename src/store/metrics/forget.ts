/**
 * Forgetting calls: the metrics engine's one hook for deleting raw calls (retention) while
 * keeping every derived column and rollup exact in the same transaction — no rebuild.
 *
 * Exact in place when, per session, the forgotten calls are a prefix in session order
 * (`started_ms`, then id). Each forgotten call's contribution is subtracted from every rollup
 * by the code that added it when it was stored (./maintain/rollup-deltas.ts, sign −1), and
 * the first call left loses its `prev_tool`. A *clean cut* — the first call left starts more
 * than the retry window (30 s) after the last one forgotten — needs nothing more: no link, run
 * or chain spans it. A cut inside the window can leave the tail of a run whose head was
 * forgotten: that run is rewritten as a rebuild would leave it (./forget/repair.ts). Any other
 * deletion — or one that includes a call the engine has not maintained yet (deferred
 * maintenance; its `run_id` is still 0) — is still correct: the project keeps the mark the
 * `metrics_calls_deleted` trigger sets and the engine rebuilds it on the next read or write.
 * The hook checks the cut itself, so no caller can make it wrong.
 *
 * The parts (./forget/): `rollups` checks the schema still matches the rollups the maintainer
 * declares; `cut` reads the calls and decides which projects can be forgotten in place;
 * `subtract` adjusts the derived data; `repair` rewrites runs cut inside the window. This
 * module runs them in order around the delete, in one transaction.
 */
import type Database from 'better-sqlite3';
import { createCutCheck } from './forget/cut.js';
import { createRunRepair } from './forget/repair.js';
import { schemaIsKnown } from './forget/rollups.js';
import { createSubtractor } from './forget/subtract.js';
import { createForgetTables, FORGET, FORGET_NEXT } from './forget/temp-tables.js';
import { forgetTails } from './maintain/tails.js';
import { prepareMaintainStatements } from './maintain/statements.js';

/** What one {@link CallForgetter.forget} did. */
export interface ForgetReport {
  /** Calls deleted. */
  calls: number;
  /** Projects whose derived data was adjusted in place: exact, nothing left to rebuild. */
  adjusted: number[];
  /** Projects left marked in `metrics_dirty` for the engine's rebuild (see the module comment). */
  rebuild: number[];
}

/** Deletes calls and keeps the metrics exact; see the module comment. */
export interface CallForgetter {
  /**
   * Deletes the calls with these ids, in one transaction (a savepoint inside the caller's).
   * Projects where the ids are a prefix of each session are adjusted in place; the others are
   * left to the engine's rebuild. Ids that are not stored are ignored.
   */
  forget(ids: Iterable<number>): ForgetReport;
  /**
   * False when the schema has a derived table or column this module does not know (the engine
   * changed without it): then every forget leaves its projects to the rebuild. Tests assert true.
   */
  readonly exact: boolean;
}

/** Builds the forgetter for an open, migrated database (statements prepared once). */
export function createCallForgetter(db: Database.Database): CallForgetter {
  createForgetTables(db);
  const exact = schemaIsKnown(db);
  const cut = createCutCheck(db);
  const subtractor = createSubtractor(db);
  const repair = createRunRepair(db, prepareMaintainStatements(db));

  // One statement for the step's ids, not one insert each (2 µs per deleted call). Only
  // integers: a null would make SQLite pick a row id of its own.
  const fill = db.prepare<[string]>(
    `INSERT OR IGNORE INTO ${FORGET} (id) SELECT value FROM json_each(?) WHERE type = 'integer'`,
  );
  const clearTemps = db.prepare(`DELETE FROM ${FORGET}`);
  const clearNext = db.prepare(`DELETE FROM ${FORGET_NEXT}`);
  const markDirty = db.prepare<[number]>(
    'INSERT OR IGNORE INTO metrics_dirty (project_id) VALUES (?)',
  );
  const clearDirty = db.prepare<[number]>('DELETE FROM metrics_dirty WHERE project_id = ?');
  const deleteCalls = db.prepare(`DELETE FROM main.calls WHERE id IN (SELECT id FROM ${FORGET})`);

  const forget = db.transaction((ids: Iterable<number>): ForgetReport => {
    // A session's remembered end may be among the calls deleted.
    forgetTails(db);
    clearTemps.run();
    clearNext.run();
    fill.run(JSON.stringify(Array.from(ids)));
    const { projects, dirty, cuts, rows, next } = cut.check(exact);
    // Left to the engine's rebuild, and left out of the subtraction below.
    for (const p of projects) if (dirty.has(p)) markDirty.run(p);

    const trimmed = subtractor.subtract(
      rows.filter((r) => !dirty.has(r.project_id)),
      next,
    );
    const calls = deleteCalls.run().changes;
    subtractor.settleSessions(trimmed);
    for (const p of repair.repair(cuts)) dirty.add(p);
    const adjusted = [...projects].filter((p) => !dirty.has(p));
    // The deletion trigger marked every project touched; the adjusted ones are exact.
    for (const p of adjusted) clearDirty.run(p);
    clearTemps.run();
    clearNext.run();
    return { calls, adjusted, rebuild: [...projects].filter((p) => dirty.has(p)) };
  });

  return { forget, exact };
}
