/**
 * Deciding, per project, whether the calls about to be forgotten are a *clean cut* (see
 * ../forget.ts): per session a prefix in session order, with the first call left starting
 * more than the retry window after the last one forgotten. Projects that are not, or that hold
 * a call the engine has not maintained yet, go to the rebuild; for those that are, the first
 * call left of each trimmed session is noted (it loses its predecessor).
 */
import type Database from 'better-sqlite3';
import { RETRY_WINDOW_MS } from '../../../shared/metric-constants.js';
import { FORGET, FORGET_NEXT } from './temp-tables.js';

/** The projects a forget touches, and which of them go to the rebuild. */
export interface CutVerdict {
  /** Every project with a call among the ids. */
  projects: Set<number>;
  /** Projects already marked dirty, or not a clean cut: left to the engine's rebuild. */
  dirty: Set<number>;
}

/** Checks the cut of the calls listed in the forget table. */
export interface CutCheck {
  /**
   * Reads the calls listed in `temp.metrics_forget`, decides each session's cut and lists in
   * `temp.metrics_forget_next` the first call left of every cleanly trimmed session that had a
   * `prev_tool`. With `exact` false every project touched goes to the rebuild.
   */
  check(exact: boolean): CutVerdict;
}

interface ForgottenRow {
  id: number;
  project_id: number;
  session_id: string;
  started_ms: number;
  run_id: number;
}

/** Prepares the cut check's statements once; the temp tables must exist. */
export function createCutCheck(db: Database.Database): CutCheck {
  const forgotten = db.prepare<[], ForgottenRow>(
    `SELECT id, project_id, session_id, started_ms, run_id FROM main.calls
     WHERE id IN (SELECT id FROM ${FORGET}) ORDER BY project_id, session_id, started_ms, id`,
  );
  const dirtyNow = db.prepare<[], { project_id: number }>('SELECT project_id FROM metrics_dirty');
  const prefixCount = db.prepare<[number, string, number, number, number], { n: number }>(
    `SELECT count(*) AS n FROM main.calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? AND started_ms <= ? AND (started_ms < ? OR id <= ?)`,
  );
  const nextCall = db.prepare<
    [number, string, number, number, number],
    { id: number; started_ms: number; prev_tool: string | null }
  >(
    `SELECT id, started_ms, prev_tool FROM main.calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? AND started_ms >= ? AND (started_ms > ? OR id > ?)
     ORDER BY started_ms, id LIMIT 1`,
  );
  const addNext = db.prepare<[number]>(`INSERT INTO ${FORGET_NEXT} (id) VALUES (?)`);

  return {
    check(exact) {
      const rows = forgotten.all();
      const dirty = new Set(dirtyNow.all().map((d) => d.project_id));
      const projects = new Set(rows.map((r) => r.project_id));
      if (!exact) for (const p of projects) dirty.add(p);

      // Rows come grouped by session; a session that is not a clean cut sends its project to
      // the rebuild.
      for (let i = 0; i < rows.length;) {
        const { project_id: p, session_id: s } = rows[i]!;
        let j = i;
        while (
          j + 1 < rows.length &&
          rows[j + 1]!.project_id === p &&
          rows[j + 1]!.session_id === s
        )
          j++;
        const last = rows[j]!;
        const n = j - i + 1;
        // run_id is 0 only before the engine has maintained a call (deferred maintenance): it
        // has no contribution to subtract yet, so leave its project to the rebuild.
        const unmaintained = rows.slice(i, j + 1).some((r) => r.run_id === 0);
        i = j + 1;
        if (dirty.has(p)) continue;
        const next = nextCall.get(p, s, last.started_ms, last.started_ms, last.id);
        const prefix = prefixCount.get(p, s, last.started_ms, last.started_ms, last.id)!.n === n;
        if (
          unmaintained ||
          !prefix ||
          (next && next.started_ms - last.started_ms <= RETRY_WINDOW_MS)
        ) {
          dirty.add(p);
        } else if (next && next.prev_tool !== null) {
          addNext.run(next.id);
        }
      }
      return { projects, dirty };
    },
  };
}
