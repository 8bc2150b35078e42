/**
 * Subtracting forgotten calls from the derived data, for projects that are a clean cut (the
 * others are marked dirty first, and the reads here leave marked projects out).
 *
 * The step's calls are read once and their contributions taken away in memory with the very
 * code that added them when they were stored (../maintain/rollup-deltas.ts, sign −1), so a
 * rollup row is updated once per step whatever number of calls it loses, and dropped when it
 * reaches zero. The first call left of a trimmed session loses its predecessor (`prev_tool`
 * and its pair), the forgotten chains go, and sessions are trimmed or dropped.
 *
 * Why in memory: one grouped `UPDATE … FROM (SELECT … GROUP BY …)` per rollup and variant read
 * and sorted the same calls again and again; with the rows read once (as arrays, ./cut.ts) a
 * deleted call costs 27–29 µs of CPU instead of 38–43 (docs/benchmarks-history.md, "Issue 19,
 * session 16").
 */
import type Database from 'better-sqlite3';
import { RollupDeltas } from '../maintain/rollup-deltas.js';
import { ROLLUPS } from '../maintain/rollup-tables.js';
import { factsOf, type Row } from '../maintain/rows.js';
import type { ForgottenRow } from './cut.js';
import { FORGET_NEXT } from './temp-tables.js';

type Key = Record<string, string | number>;

/** A session that keeps calls after the forget, and whether its last end must be recomputed. */
export interface TrimmedSession {
  key: Key;
  /** A forgotten call ended last: `last_end_ms` must be recomputed from the calls left. */
  end: boolean;
}

/** The subtraction, in two steps around the caller's delete of the calls. */
export interface Subtractor {
  /**
   * Before the calls are deleted: subtracts `rows` (the forgotten calls of projects kept
   * exact, as ./cut.ts read them) from every rollup and session, drops emptied rows, takes
   * `next` (the first call left of each trimmed session, listed in the next-calls table) off
   * its tool pair and its `prev_tool`, and drops the forgotten chains. Answers the sessions
   * that keep calls.
   */
  subtract(rows: readonly ForgottenRow[], next: readonly Row[]): TrimmedSession[];
  /** After the delete: moves the trimmed sessions' `first_ms` (and `last_end_ms` if needed). */
  settleSessions(trimmed: TrimmedSession[]): void;
}

/** The slots of a session's deltas that are sums (6–8 are unused; see RollupDeltas.sessions). */
const SESSION_SLOTS = [0, 1, 2, 3, 4, 5, 9, 10, 11, 12, 13, 14, 15, 16];

/** Adds one key's (negative) deltas to its row; drops the row once its count reaches zero. */
type SubtractOp = (key: unknown[], deltas: number[]) => void;

/**
 * Per rollup, the update of one row by its key, returning what is left of its count. The
 * columns come from ../maintain/rollup-tables.ts, as for ingest's upserts, in the order
 * {@link RollupDeltas} keeps keys and values (a width that differs throws here, at
 * start-up, never at a step; an order that differs fails the forget property tests).
 */
function subtractOps(db: Database.Database, deltas: RollupDeltas): Map<string, SubtractOp> {
  const ops = new Map<string, SubtractOp>();
  for (const [table, d] of deltas.tables()) {
    const r = ROLLUPS.find((x) => x.table === table);
    if (!r || r.sums.length !== d.width)
      throw new Error(`forget: ${table} is not declared as the maintainer writes it`);
    const where = r.keys.map((c) => `${c} = ?`).join(' AND ');
    const update = db
      .prepare(
        `UPDATE ${table} SET ${r.sums.map((c) => `${c} = ${c} + ?`).join(', ')}
         WHERE ${where} RETURNING ${r.count}`,
      )
      .pluck();
    const drop = db.prepare(`DELETE FROM ${table} WHERE ${where}`);
    ops.set(table, (key, v) => {
      const left = update.get(...v, ...key) as number | undefined;
      if (left !== undefined && left <= 0) drop.run(...key);
    });
  }
  return ops;
}

/** Prepares the subtraction's statements once; the temp tables must exist. */
export function createSubtractor(db: Database.Database): Subtractor {
  const ops = subtractOps(db, new RollupDeltas());
  const clearPrevTool = db.prepare(
    `UPDATE main.calls SET prev_tool = NULL WHERE id IN (SELECT id FROM ${FORGET_NEXT})`,
  );
  const dropChains = db.prepare<[string]>(
    'DELETE FROM metrics_chains WHERE run_id IN (SELECT value FROM json_each(?))',
  );

  const sessionWhere =
    'project_id = @project_id AND session_id = @session_id AND client_name = @client_name';
  // The summed columns of metrics_sessions, each bound from its slot in RollupDeltas.
  const sessionSub = db.prepare<[Key], { calls: number; last_end_ms: number }>(
    `UPDATE metrics_sessions SET calls = calls + @v0, ok = ok + @v1, empty = empty + @v2,
       bad_args = bad_args + @v3, tool_error = tool_error + @v4, crashed = crashed + @v5,
       fcs = fcs + @v9, retries = retries + @v10, repeats = repeats + @v11,
       unknown_links = unknown_links + @v12, chains = chains + @v13, units = units + @v14,
       duration = duration + @v15, slow = slow + @v16
     WHERE ${sessionWhere} RETURNING calls, last_end_ms`,
  );
  const sessionDrop = db.prepare<[Key]>(`DELETE FROM metrics_sessions WHERE ${sessionWhere}`);
  // After the delete. The calls left of a session all start after the forgotten prefix, so
  // `last_ms` stands; `first_ms` moves; `last_end_ms` only if a forgotten call ended last.
  const sessionFirst = db.prepare<[Key]>(
    `UPDATE metrics_sessions SET first_ms = (
       SELECT started_ms FROM main.calls INDEXED BY calls_by_session
       WHERE ${sessionWhere} ORDER BY started_ms, id LIMIT 1)
     WHERE ${sessionWhere}`,
  );
  const sessionEnd = db.prepare<[Key]>(
    `UPDATE metrics_sessions SET last_end_ms = (
       SELECT max(started_ms + duration_ms) FROM main.calls INDEXED BY calls_by_session
       WHERE ${sessionWhere})
     WHERE ${sessionWhere}`,
  );

  return {
    subtract(rows, next) {
      const deltas = new RollupDeltas();
      /** The latest end among each session's forgotten calls. */
      const lastEnd = new Map<number, number>();
      /** The runs of forgotten chain members: their chain rows go with them. */
      const chains = new Set<number>();
      for (const r of rows) {
        if (r.chain === 1) chains.add(r.run_id);
        deltas.contribute(r, factsOf(r), -1);
        deltas.contributeStatic(r, r.size_bucket, -1);
        const s = deltas.sessionIdOf(r);
        const end = r.started_ms + r.duration_ms;
        const seen = lastEnd.get(s);
        if (seen === undefined || end > seen) lastEnd.set(s, end);
      }
      // The first call left of a trimmed session loses its predecessor: no prev_tool, no pair.
      for (const r of next) deltas.contributePair(r, r.prev_tool, -1);
      for (const [table, d] of deltas.tables()) {
        const op = ops.get(table)!;
        for (const { key, v } of d.entries()) op(key, v);
      }
      clearPrevTool.run();
      if (chains.size > 0) dropChains.run(JSON.stringify([...chains]));
      const trimmed: TrimmedSession[] = [];
      for (const { key: k, v } of deltas.sessions.entries()) {
        const [project_id, session_id, client_name] = k as [number, string, string];
        const key = { project_id, session_id, client_name };
        const params: Key = { ...key };
        for (const i of SESSION_SLOTS) params[`v${i}`] = v[i]!;
        const left = sessionSub.get(params);
        if (!left) continue;
        if (left.calls <= 0) sessionDrop.run(key);
        else {
          const ended = lastEnd.get(deltas.sessionKeyId(project_id, session_id, client_name))!;
          trimmed.push({ key, end: ended >= left.last_end_ms });
        }
      }
      return trimmed;
    },
    settleSessions(trimmed) {
      for (const { key, end } of trimmed) {
        sessionFirst.run(key);
        if (end) sessionEnd.run(key);
      }
    },
  };
}
