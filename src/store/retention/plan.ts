/**
 * Which calls a retention pass deletes next: the oldest call's session, from its first call
 * up to a *clean cut* — a point where the next call left starts more than the retry window
 * (30 s) later — or the whole session; then the next oldest session's, and so on, up to
 * `chunkRows` calls a step. A clean cut is what the metrics engine forgets most cheaply
 * (src/store/metrics/forget.ts): no link, run or chain spans it. Only a session with more
 * than `chunkRows` calls in a row and no quiet 30 s is cut inside a run (*forced*).
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

/** What one step deletes: whole runs of one or more sessions, at most `chunkRows` calls. */
export interface PlannedStep {
  ids: number[];
  /**
   * The step's one run was cut without a quiet 30 s: more than `chunkRows` calls in a row had
   * none (the forget hook then rewrites the run left, or leaves a long one to the rebuild).
   */
  forced: boolean;
}

/** Picks the calls of each step of a pass; see {@link createRunPlanner}. */
export interface RunPlanner {
  /**
   * The next step's calls, or null when the calls are within both caps; at most `limit` calls
   * (default and ceiling `chunkRows`: the keep-up's steps are smaller, see ./keep-up.ts).
   */
  next(pass: CallsPass, limit?: number): PlannedStep | null;
}

interface HeadRow {
  id: number;
  started_ms: number;
  received_ms: number;
}

/** A call as the search walks them, oldest first. */
interface ArrivalRow {
  id: number;
  project_id: number;
  session_id: string;
  received_ms: number;
}

/** Where a step's search stands: sessions it already took, and its own cursor. */
interface StepScan {
  taken: Set<string>;
  cursor: number;
  /** No session was skipped for being taken: the pass's cursor may follow this one. */
  inOrder: boolean;
  /** The calls after `cursor` read ahead, in id order, and how many of them were passed. */
  ahead: ArrivalRow[];
  at: number;
}

/**
 * How many calls the search reads at a time. It walks every call of the sessions a step takes
 * (they are skipped as taken): one query per call cost 4 µs per deleted call, a tenth of a
 * step; 512 at a time, 1.6 µs (docs/benchmarks-history.md, "Issue 19, session 16").
 */
const READ_AHEAD = 512;

/**
 * Builds the planner. A step holds at most `chunkRows` calls, so a transaction stays small, and
 * gathers runs of several sessions up to that: a step's fixed cost (its commit, the forget
 * hook's statements and the rollup rows the sessions share) is paid once for all of them, not
 * once per 30-call session. Oldest first by arrival (row id), because the age cap is on
 * arrival time — the server's clock, which an SDK with a wrong clock cannot move.
 */
export function createRunPlanner(db: Database.Database, chunkRows: number): RunPlanner {
  const oldestAfter = db.prepare<[number, number], ArrivalRow>(
    'SELECT id, project_id, session_id, received_ms FROM calls WHERE id > ? ORDER BY id LIMIT ?',
  );
  /**
   * The oldest call after the scan's cursor. Read ahead in the step's own transaction, where
   * nothing else writes, so what was read stays what a query would answer.
   */
  const oldestOf = (scan: StepScan): ArrivalRow | undefined => {
    if (scan.at === scan.ahead.length) {
      scan.ahead = oldestAfter.all(scan.cursor, READ_AHEAD);
      scan.at = 0;
    }
    return scan.ahead[scan.at];
  };
  const sessionHead = db.prepare<[number, string, number], HeadRow>(
    `SELECT id, started_ms, received_ms FROM calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? ORDER BY started_ms, id LIMIT ?`,
  );

  /**
   * The next run of the oldest session not taken yet, of at most `room` calls; null when the
   * calls are within both caps, 'full' when only a forced cut would fit in what is left of a
   * step that already holds runs (the next step starts with the whole chunk for it).
   */
  function nextRun(pass: CallsPass, scan: StepScan, room: number): PlannedStep | null | 'full' {
    for (;;) {
      const oldest = oldestOf(scan);
      if (!oldest) return null;
      const key = `${oldest.project_id}\0${oldest.session_id}`;
      if (scan.taken.has(key) || pass.keep.has(key)) {
        scan.cursor = oldest.id;
        scan.at++;
        if (scan.taken.has(key)) scan.inOrder = false;
        else if (scan.inOrder) pass.cursor = oldest.id;
        continue;
      }
      const byAge = oldest.received_ms < pass.cutoff;
      const bySize = pass.overBy > 0;
      if (!byAge && !bySize) return null;
      // The session's first calls in session order, and the longest prefix that ends at a cut.
      const rows = sessionHead.all(oldest.project_id, oldest.session_id, room + 1);
      const whole = rows.length <= room;
      let cut = -1;
      let newest = -Infinity;
      for (let i = 0; i < Math.min(rows.length, room); i++) {
        newest = Math.max(newest, rows[i]!.received_ms);
        // By age, only calls all of which arrived before the cutoff may go.
        if (!bySize && newest >= pass.cutoff) break;
        const after = rows[i + 1];
        if (after ? after.started_ms - rows[i]!.started_ms > RETRY_WINDOW_MS : whole) cut = i;
      }
      let forced = false;
      if (cut === -1 && !whole && (bySize || newest < pass.cutoff)) {
        if (scan.taken.size > 0) return 'full';
        // More than chunkRows calls without a quiet 30 s: cut anyway (a bounded transaction
        // matters more than a clean cut).
        cut = room - 1;
        forced = true;
      }
      if (cut === -1) {
        pass.keep.add(key);
        continue;
      }
      scan.taken.add(key);
      return { ids: rows.slice(0, cut + 1).map((r) => r.id), forced };
    }
  }

  function next(pass: CallsPass, limit = chunkRows): PlannedStep | null {
    const most = Math.max(1, Math.min(chunkRows, limit));
    const scan: StepScan = {
      taken: new Set(),
      cursor: pass.cursor,
      inOrder: true,
      ahead: [],
      at: 0,
    };
    const step: PlannedStep = { ids: [], forced: false };
    while (step.ids.length < most) {
      const run = nextRun(pass, scan, most - step.ids.length);
      if (run === null || run === 'full') break;
      for (const id of run.ids) step.ids.push(id);
      step.forced ||= run.forced;
      pass.overBy -= run.ids.length;
      if (run.forced) break;
    }
    return step.ids.length > 0 ? step : null;
  }

  return { next };
}
