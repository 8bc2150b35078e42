/** Every statement the maintainer runs, prepared once per connection. */
import type Database from 'better-sqlite3';
import type { ChainRow } from '../queries/chains.js';
import { ROLLUPS, upsertRollupSql } from './rollup-tables.js';
import { COLS, type ChainStats, type Row } from './rows.js';

// Neighbour lookups are written `started_ms <= ? AND (started_ms < ? OR id < ?)` rather than
// `(started_ms < ? OR (started_ms = ? AND id < ?))`: same meaning, but SQLite can only turn the
// first into an index range, so a lookup costs the same in a session of ten calls or ten
// thousand (docs/benchmarks-history.md, "Where the time goes").

/** One retry chain's row in `metrics_chains` as the maintainer writes it, its counts together. */
export type ChainPut = Omit<ChainRow, keyof ChainStats | 'resolved'> & {
  stats: ChainStats;
  resolved: 0 | 1;
};

/** Prepares the maintainer's statements on `db`. */
export function prepareMaintainStatements(db: Database.Database) {
  const byIdRange = db.prepare<[number, number], Row>(
    `SELECT ${COLS} FROM calls WHERE id BETWEEN ? AND ?`,
  );
  const byId = db.prepare<[number], Row>(`SELECT ${COLS} FROM calls WHERE id = ?`);
  // Where a session ends, and where one tool's calls in it end (./append.ts, on a cache miss).
  const sessionLast = db.prepare<
    [number, string],
    { started_ms: number; id: number; tool_name: string }
  >(
    `SELECT started_ms, id, tool_name FROM calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? ORDER BY started_ms DESC, id DESC LIMIT 1`,
  );
  // Within the retry window only: an older call of the tool links to nothing that comes now,
  // and the session's index is read back only that far (migration 011).
  const toolLast = db.prepare<[number, string, string, number], Row>(
    `SELECT ${COLS} FROM calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? AND tool_name = ? AND started_ms >= ?
     ORDER BY started_ms DESC, id DESC LIMIT 1`,
  );
  // A new call with its facts in one write; with the facts at their defaults (run_id 0: not
  // maintained yet) for the paths that maintain it afterwards.
  const insertCall = db.prepare(
    `INSERT INTO calls (id, project_id, batch_id, session_id, client_name, tool_name, started_at,
       started_ms, duration_ms, outcome, response_bytes, is_empty, args_hash, received_ms, extra,
       omitted, link, prev_link, fcs, run_id, chain, prev_tool, size_bucket)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Also within the retry window (./same-tool-runs.ts uses no anchor further back).
  const anchorOf = db.prepare<[number, string, string, number, number, number, number], Row>(
    `SELECT ${COLS} FROM calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? AND tool_name = ?
       AND started_ms <= ? AND (started_ms < ? OR id < ?) AND started_ms >= ?
     ORDER BY started_ms DESC, id DESC LIMIT 1`,
  );
  const groupFrom = db.prepare<[number, string, string, number, number, number], Row>(
    `SELECT ${COLS} FROM calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? AND tool_name = ?
       AND started_ms >= ? AND (started_ms > ? OR id >= ?)
     ORDER BY started_ms, id`,
  );
  const sessionPrev = db.prepare<[number, string, number, number, number], { tool_name: string }>(
    `SELECT tool_name FROM calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? AND started_ms <= ? AND (started_ms < ? OR id < ?)
     ORDER BY started_ms DESC, id DESC LIMIT 1`,
  );
  const sessionNext = db.prepare<[number, string, number, number, number], Row>(
    `SELECT ${COLS} FROM calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? AND started_ms >= ? AND (started_ms > ? OR id > ?)
     ORDER BY started_ms, id LIMIT 1`,
  );
  const sessionSpan = db.prepare<[number, string, number, number, number, number], Row>(
    `SELECT ${COLS} FROM calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? AND started_ms >= ? AND (started_ms > ? OR id >= ?)
       AND started_ms <= ?
     ORDER BY started_ms, id`,
  );
  const chainPrefix = db.prepare(
    `UPDATE calls SET chain = 1
     WHERE project_id = @p AND session_id = @s AND tool_name = @t AND run_id = @run
       AND started_ms BETWEEN @fromMs AND @toMs
       AND NOT (started_ms = @fromMs AND id <= @fromId) AND NOT (started_ms = @toMs AND id >= @toId)`,
  );
  const chainPrefixStats = db.prepare<
    [{ p: number; s: string; t: string; run: number; fromMs: number; toMs: number; toId: number }],
    ChainStats
  >(
    `SELECT count(*) AS calls, coalesce(sum(link = 1), 0) AS retries,
            coalesce(sum(link = 2), 0) AS repeats, coalesce(sum(link = 3), 0) AS unknown_links
     FROM calls INDEXED BY calls_by_session
     WHERE project_id = @p AND session_id = @s AND tool_name = @t AND run_id = @run
       AND started_ms BETWEEN @fromMs AND @toMs AND NOT (started_ms = @toMs AND id >= @toId)`,
  );
  const chainRow = db.prepare<[number], ChainStats & { client_name: string; first_ms: number }>(
    `SELECT calls, retries, repeats, unknown_links, client_name, first_ms
     FROM metrics_chains WHERE run_id = ?`,
  );
  // An upsert, not INSERT OR REPLACE: a chain grows call by call, and REPLACE deleted and
  // re-inserted its row and all three index entries each time (5% of a flood's CPU). The
  // update sets only what a growing chain changes: its run id names its head call, so the
  // project, session, tool, client and first_ms never do, and SQLite rewrites an index
  // entry for every indexed column named in SET, equal or not. Bound by position: a flood
  // writes a quarter of a chain row per call, and binding 14 values by name took a third
  // longer than the upsert itself (1.2 of 3.7 µs).
  const upsertChain = db.prepare(
    `INSERT INTO metrics_chains (run_id, project_id, session_id, tool_name, client_name,
       first_ms, last_ms, last_end_ms, calls, retries, repeats, unknown_links, resolved, tail_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (run_id) DO UPDATE SET
       last_ms = excluded.last_ms, last_end_ms = excluded.last_end_ms, calls = excluded.calls,
       retries = excluded.retries, repeats = excluded.repeats,
       unknown_links = excluded.unknown_links, resolved = excluded.resolved,
       tail_id = excluded.tail_id`,
  );
  const putChain = (c: ChainPut): void => {
    const { stats: n } = c;
    upsertChain.run(
      c.run_id,
      c.project_id,
      c.session_id,
      c.tool_name,
      c.client_name,
      c.first_ms,
      c.last_ms,
      c.last_end_ms,
      n.calls,
      n.retries,
      n.repeats,
      n.unknown_links,
      c.resolved,
      c.tail_id,
    );
  };
  const dropChain = db.prepare('DELETE FROM metrics_chains WHERE run_id = ?');
  const updateFacts = db.prepare(
    `UPDATE calls SET link = @link, prev_link = @prev_link, fcs = @fcs, run_id = @run_id,
       chain = @chain, prev_tool = @prev_tool WHERE id = @id`,
  );
  const updateNew = db.prepare(
    `UPDATE calls SET link = @link, prev_link = @prev_link, fcs = @fcs, run_id = @run_id,
       chain = @chain, prev_tool = @prev_tool, size_bucket = @size_bucket WHERE id = @id`,
  );
  const upsertSession = db.prepare(
    `INSERT INTO metrics_sessions (project_id, session_id, client_name, first_ms, last_ms,
       last_end_ms, calls, ok, empty, bad_args, tool_error, crashed, fcs, retries, repeats,
       unknown_links, chains, units, duration, slow)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET first_ms = min(first_ms, excluded.first_ms),
       last_ms = max(last_ms, excluded.last_ms), last_end_ms = max(last_end_ms, excluded.last_end_ms),
       calls = calls + excluded.calls, ok = ok + excluded.ok, empty = empty + excluded.empty,
       bad_args = bad_args + excluded.bad_args, tool_error = tool_error + excluded.tool_error,
       crashed = crashed + excluded.crashed, fcs = fcs + excluded.fcs,
       retries = retries + excluded.retries, repeats = repeats + excluded.repeats,
       unknown_links = unknown_links + excluded.unknown_links, chains = chains + excluded.chains,
       units = units + excluded.units, duration = duration + excluded.duration,
       slow = slow + excluded.slow`,
  );
  // Every rollup but the sessions' by its declared columns (./rollup-tables.ts), by table.
  const upsertRollup = new Map(ROLLUPS.map((r) => [r.table, db.prepare(upsertRollupSql(r))]));
  const dirtyProjects = db.prepare<[], { project_id: number }>(
    'SELECT project_id FROM metrics_dirty',
  );
  return {
    byIdRange,
    byId,
    sessionLast,
    toolLast,
    insertCall,
    anchorOf,
    groupFrom,
    sessionPrev,
    sessionNext,
    sessionSpan,
    chainPrefix,
    chainPrefixStats,
    chainRow,
    putChain,
    dropChain,
    updateFacts,
    updateNew,
    upsertSession,
    upsertRollup,
    dirtyProjects,
  };
}

/** The maintainer's prepared statements. */
export type MaintainStatements = ReturnType<typeof prepareMaintainStatements>;
