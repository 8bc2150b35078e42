/**
 * Subtracting forgotten calls from the derived data, for projects that are a clean cut (the
 * others are marked dirty first, and every grouped SELECT here leaves marked projects out):
 * each rollup loses the grouped contribution of the calls with the same SQL fragments the
 * rebuild uses, the first call left of a trimmed session loses its predecessor (`prev_tool`
 * and its pair), the forgotten chains go, and sessions are trimmed or dropped.
 */
import type Database from 'better-sqlite3';
import { ROLLUPS, SESSION_SUMS, type Rollup } from './rollups.js';
import { FORGET, FORGET_NEXT } from './temp-tables.js';

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
   * Before the calls are deleted (the grouped SELECTs read them): subtracts them from every
   * rollup and session, drops emptied rows, fixes the next calls' `prev_tool` and drops their
   * chains. Answers the sessions that keep calls.
   */
  subtract(): TrimmedSession[];
  /** After the delete: moves the trimmed sessions' `first_ms` (and `last_end_ms` if needed). */
  settleSessions(trimmed: TrimmedSession[]): void;
}

// Only rows of projects not marked dirty: a marked project is rebuilt from scratch anyway.
const clean = (source: string) =>
  `main.calls WHERE id IN (SELECT id FROM ${source})
     AND project_id NOT IN (SELECT project_id FROM metrics_dirty)`;

/**
 * Per rollup and variant, one statement: subtract the grouped contribution of `source`, and
 * drop the rows that reach zero — found from what the update returns, by primary key, rather
 * than by grouping the same calls a second time (half of a retention step's reads of `calls`).
 */
function rollupOps(db: Database.Database, source: string, tables: Rollup[]): (() => void)[] {
  return tables.flatMap((r) =>
    r.variants.map((v) => {
      const keys = Object.entries(r.keys).map(([c, e]) => `${v[c] ?? e} AS ${c}`);
      const grouped = `SELECT ${keys.join(', ')}, ${r.sums[1]} FROM ${clean(source)}
        ${r.where ? `AND ${r.where}` : ''} GROUP BY ${keys.map((_, i) => i + 1).join(', ')}`;
      const keyCols = Object.keys(r.keys);
      // RETURNING names the updated table's own columns (SQLite lets no other table in).
      const update = db
        .prepare(
          `UPDATE ${r.table} AS m SET ${r.sums[0].map((c) => `${c} = m.${c} - d.${c}`).join(', ')}
           FROM (${grouped}) AS d WHERE ${keyCols.map((c) => `m.${c} = d.${c}`).join(' AND ')}
           RETURNING ${r.count}, ${keyCols.join(', ')}`,
        )
        .raw();
      const drop = db.prepare(
        `DELETE FROM ${r.table} WHERE ${keyCols.map((c) => `${c} = ?`).join(' AND ')}`,
      );
      return () => {
        for (const [left, ...key] of update.all() as [number, ...unknown[]][])
          if (left <= 0) drop.run(...key);
      };
    }),
  );
}

/** Prepares the subtraction's statements once; the temp tables must exist. */
export function createSubtractor(db: Database.Database): Subtractor {
  // Both run before the calls are deleted: they group the calls to subtract.
  const forgetOps = rollupOps(db, FORGET, ROLLUPS);
  const pairOps = rollupOps(
    db,
    FORGET_NEXT,
    ROLLUPS.filter((r) => r.table === 'metrics_pairs'),
  );
  const clearPrevTool = db.prepare(
    `UPDATE main.calls SET prev_tool = NULL WHERE id IN (SELECT id FROM ${FORGET_NEXT})`,
  );
  const dropChains = db.prepare(
    `DELETE FROM metrics_chains WHERE run_id IN (
       SELECT run_id FROM ${clean(FORGET)} AND chain = 1)`,
  );

  const sessionKey = ['project_id', 'session_id', 'client_name'];
  const sessionWhere = sessionKey.map((c) => `${c} = @${c}`).join(' AND ');
  const sessionGroups = db.prepare<[], Key & { max_end: number }>(
    `SELECT ${sessionKey.join(', ')}, ${Object.entries(SESSION_SUMS)
      .map(([c, e]) => `${e} AS ${c}`)
      .join(', ')}, max(started_ms + duration_ms) AS max_end
     FROM ${clean(FORGET)} GROUP BY 1, 2, 3`,
  );
  const sessionSub = db.prepare<[Key], { calls: number; last_end_ms: number }>(
    `UPDATE metrics_sessions SET ${Object.keys(SESSION_SUMS)
      .map((c) => `${c} = ${c} - @${c}`)
      .join(', ')}
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
    subtract() {
      for (const op of forgetOps) op();
      // The first call left of a trimmed session loses its predecessor: no prev_tool, no pair.
      for (const op of pairOps) op();
      clearPrevTool.run();
      dropChains.run();
      const trimmed: TrimmedSession[] = [];
      for (const { max_end, ...g } of sessionGroups.all()) {
        const left = sessionSub.get(g);
        const key = {
          project_id: g.project_id!,
          session_id: g.session_id!,
          client_name: g.client_name!,
        };
        if (!left) continue;
        if (left.calls <= 0) sessionDrop.run(key);
        else trimmed.push({ key, end: max_end >= left.last_end_ms });
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
