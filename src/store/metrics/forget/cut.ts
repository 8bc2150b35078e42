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
import type { LinkCode, DerivedFacts } from '../../../metrics/links.js';
import type { RollupRow } from '../maintain/rollup-deltas.js';
import { COLS, type Row } from '../maintain/rows.js';
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
  /** The calls read, in session order: what the subtraction takes away (those not dirty). */
  rows: ForgottenRow[];
  /** The first call left of each trimmed session that had a `prev_tool` (it loses it). */
  next: Row[];
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

/** A call about to be forgotten: what its contribution is computed from, and its size bucket. */
export type ForgottenRow = RollupRow & DerivedFacts & { id: number; size_bucket: number };

/** The columns of a {@link ForgottenRow}, read as arrays (see {@link toForgotten}). */
const FORGOTTEN_COLS = `id, project_id, session_id, client_name, tool_name, started_ms,
  duration_ms, outcome, response_bytes, is_empty, link, prev_link, fcs, run_id, chain, prev_tool,
  size_bucket`;

type ForgottenTuple = [
  number,
  number,
  string,
  string,
  string,
  number,
  number,
  string,
  number,
  number,
  LinkCode,
  LinkCode,
  0 | 1,
  number,
  0 | 1,
  string | null,
  number,
];

/**
 * A row read as an array, as an object. Why: better-sqlite3 builds a row object property by
 * property — 3.7 µs for 18 columns against 1.8 µs for the same row as an array (a scratch
 * measure on this machine) — and a step reads every call it forgets.
 */
const toForgotten = (t: ForgottenTuple): ForgottenRow => ({
  id: t[0],
  project_id: t[1],
  session_id: t[2],
  client_name: t[3],
  tool_name: t[4],
  started_ms: t[5],
  duration_ms: t[6],
  outcome: t[7],
  response_bytes: t[8],
  is_empty: t[9],
  link: t[10],
  prev_link: t[11],
  fcs: t[12],
  run_id: t[13],
  chain: t[14],
  prev_tool: t[15],
  size_bucket: t[16],
});

/** Prepares the cut check's statements once; the temp tables must exist. */
export function createCutCheck(db: Database.Database): CutCheck {
  const forgotten = db
    .prepare<[], ForgottenTuple>(
      `SELECT ${FORGOTTEN_COLS} FROM main.calls
       WHERE id IN (SELECT id FROM ${FORGET}) ORDER BY project_id, session_id, started_ms, id`,
    )
    .raw();
  const dirtyNow = db.prepare<[], { project_id: number }>('SELECT project_id FROM metrics_dirty');
  const prefixCount = db.prepare<[number, string, number, number, number], { n: number }>(
    `SELECT count(*) AS n FROM main.calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? AND started_ms <= ? AND (started_ms < ? OR id <= ?)`,
  );
  const nextCall = db.prepare<[number, string, number, number, number], Row>(
    `SELECT ${COLS} FROM main.calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? AND started_ms >= ? AND (started_ms > ? OR id > ?)
     ORDER BY started_ms, id LIMIT 1`,
  );
  const addNext = db.prepare<[number]>(`INSERT INTO ${FORGET_NEXT} (id) VALUES (?)`);

  return {
    check(exact) {
      const rows = forgotten.all().map(toForgotten);
      const dirty = new Set(dirtyNow.all().map((d) => d.project_id));
      const projects = new Set(rows.map((r) => r.project_id));
      if (!exact) for (const p of projects) dirty.add(p);
      const cuts: CutTool[] = [];
      const next: Row[] = [];

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
        const left = nextCall.get(p, s, last.started_ms, last.started_ms, last.id);
        if (left && left.prev_tool !== null) {
          addNext.run(left.id);
          next.push(left);
        }
        if (left && left.started_ms - last.started_ms <= RETRY_WINDOW_MS) {
          // Rows come in session order: the last one seen of each tool is its last forgotten.
          const byTool = new Map<string, ForgottenRow>();
          for (const r of session) byTool.set(r.tool_name, r);
          for (const r of byTool.values()) cuts.push(r);
        }
      }
      return {
        projects,
        dirty,
        cuts: cuts.filter((c) => !dirty.has(c.project_id)),
        rows,
        next: next.filter((r) => !dirty.has(r.project_id)),
      };
    },
  };
}
