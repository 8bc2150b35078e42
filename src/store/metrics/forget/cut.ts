/**
 * Deciding, per project, whether the calls about to be forgotten can be forgotten exactly in
 * place (see ../forget.ts): per session a prefix in session order. Projects where they are not,
 * or that hold a call the engine has not maintained yet, go to the rebuild. For the others, the
 * first call left of each trimmed session is noted (it loses its predecessor), and a session
 * whose first call left starts within the retry window of the last one forgotten — a cut inside
 * a run — names, per tool, its last forgotten call, for ./repair.ts.
 */
import type Database from 'better-sqlite3';
import { RETRY_WINDOW_MS } from '../../../shared/metric-constants.js';
import type { CutTool } from './repair.js';
import { FORGET, FORGET_NEXT } from './temp-tables.js';

/** The projects a forget touches, and which of them go to the rebuild. */
export interface CutVerdict {
  /** Every project with a call among the ids. */
  projects: Set<number>;
  /** Projects already marked dirty, or not a prefix: left to the engine's rebuild. */
  dirty: Set<number>;
  /** Per tool of each session cut inside the retry window, its last forgotten call. */
  cuts: CutTool[];
}

/** Checks the cut of the calls listed in the forget table. */
export interface CutCheck {
  /**
   * Reads the calls listed in `temp.metrics_forget`, decides each session's cut and lists in
   * `temp.metrics_forget_next` the first call left of every trimmed session that had a
   * `prev_tool`. With `exact` false every project touched goes to the rebuild.
   */
  check(exact: boolean): CutVerdict;
}

interface ForgottenRow {
  id: number;
  project_id: number;
  session_id: string;
  tool_name: string;
  started_ms: number;
  run_id: number;
}

/** Prepares the cut check's statements once; the temp tables must exist. */
export function createCutCheck(db: Database.Database): CutCheck {
  const forgotten = db.prepare<[], ForgottenRow>(
    `SELECT id, project_id, session_id, tool_name, started_ms, run_id FROM main.calls
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
      const cuts: CutTool[] = [];

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
        const session = rows.slice(i, j + 1);
        i = j + 1;
        if (dirty.has(p)) continue;
        // run_id is 0 only before the engine has maintained a call (deferred maintenance): it
        // has no contribution to subtract yet, so leave its project to the rebuild.
        const unmaintained = session.some((r) => r.run_id === 0);
        const prefix = prefixCount.get(p, s, last.started_ms, last.started_ms, last.id)!.n === n;
        if (unmaintained || !prefix) {
          dirty.add(p);
          continue;
        }
        const next = nextCall.get(p, s, last.started_ms, last.started_ms, last.id);
        if (next && next.prev_tool !== null) addNext.run(next.id);
        if (next && next.started_ms - last.started_ms <= RETRY_WINDOW_MS) {
          // Rows come in session order: the last one seen of each tool is its last forgotten.
          const byTool = new Map<string, ForgottenRow>();
          for (const r of session) byTool.set(r.tool_name, r);
          for (const r of byTool.values()) cuts.push(r);
        }
      }
      return { projects, dirty, cuts: cuts.filter((c) => !dirty.has(c.project_id)) };
    },
  };
}
