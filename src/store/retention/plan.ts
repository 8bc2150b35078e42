/**
 * Which calls a retention pass deletes next: the oldest call's session, from its first call
 * up to a *clean cut* — a point where the next call left starts more than the retry window
 * (30 s) later — or the whole session. That is exactly the cut the metrics engine can forget
 * exactly and cheaply (src/store/metrics/forget.ts): no link, run or chain spans it.
 */
import type Database from 'better-sqlite3';
import { RETRY_WINDOW_MS } from '../../shared/metric-constants.js';

/** The state of one pass over the calls, advanced by {@link RunPlanner.next}. */
export interface CallsPass {
  /** Calls that arrived before this (server clock, ms) are over the age cap. */
  cutoff: number;
  /** Calls over the size cap still to delete (counted once per pass). */
  overBy: number;
  /** Sessions with nothing deletable this pass, by `project\0session`. */
  keep: Set<string>;
  /** Oldest call id not yet looked at. */
  cursor: number;
}

/** A run of one session's calls to delete in one transaction. */
export interface PlannedRun {
  ids: number[];
  /**
   * Cut without a quiet 30 s: more than `chunkRows` calls in a row had none. The metrics
   * engine then rebuilds the project instead of forgetting the calls in place.
   */
  forced: boolean;
}

/** Picks runs for a pass; see {@link createRunPlanner}. */
export interface RunPlanner {
  /** The next run to delete, or null when the calls are within both caps. */
  next(pass: CallsPass): PlannedRun | null;
}

interface HeadRow {
  id: number;
  started_ms: number;
  received_ms: number;
}

/**
 * Builds the planner. Runs hold at most `chunkRows` calls, so a transaction stays small.
 * Oldest first by arrival (row id), because the age cap is on arrival time — the server's
 * clock, which an SDK with a wrong clock cannot move.
 */
export function createRunPlanner(db: Database.Database, chunkRows: number): RunPlanner {
  const oldestAfter = db.prepare<
    [number],
    { id: number; project_id: number; session_id: string; received_ms: number }
  >('SELECT id, project_id, session_id, received_ms FROM calls WHERE id > ? ORDER BY id LIMIT 1');
  const sessionHead = db.prepare<[number, string, number], HeadRow>(
    `SELECT id, started_ms, received_ms FROM calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? ORDER BY started_ms, id LIMIT ?`,
  );

  function next(pass: CallsPass): PlannedRun | null {
    for (;;) {
      const oldest = oldestAfter.get(pass.cursor);
      if (!oldest) return null;
      const key = `${oldest.project_id}\0${oldest.session_id}`;
      if (pass.keep.has(key)) {
        pass.cursor = oldest.id;
        continue;
      }
      const byAge = oldest.received_ms < pass.cutoff;
      const bySize = pass.overBy > 0;
      if (!byAge && !bySize) return null;
      // The session's first calls in session order, and the longest prefix that ends at a cut.
      const rows = sessionHead.all(oldest.project_id, oldest.session_id, chunkRows + 1);
      const whole = rows.length <= chunkRows;
      let cut = -1;
      let newest = -Infinity;
      for (let i = 0; i < Math.min(rows.length, chunkRows); i++) {
        newest = Math.max(newest, rows[i]!.received_ms);
        // By age, only calls all of which arrived before the cutoff may go.
        if (!bySize && newest >= pass.cutoff) break;
        const after = rows[i + 1];
        if (after ? after.started_ms - rows[i]!.started_ms > RETRY_WINDOW_MS : whole) cut = i;
      }
      let forced = false;
      if (cut === -1 && !whole && (bySize || newest < pass.cutoff)) {
        // More than chunkRows calls without a quiet 30 s: cut anyway (a bounded transaction
        // matters more than avoiding one rebuild of the project).
        cut = chunkRows - 1;
        forced = true;
      }
      if (cut === -1) {
        pass.keep.add(key);
        pass.cursor = oldest.id;
        continue;
      }
      return { ids: rows.slice(0, cut + 1).map((r) => r.id), forced };
    }
  }

  return { next };
}
