/**
 * Forgetting calls: the metrics engine's one hook for deleting raw calls (retention) while
 * keeping every derived column and rollup exact in the same transaction — no rebuild.
 *
 * Exact in place only for a *clean cut*: per session, the forgotten calls are a prefix in
 * session order (`started_ms`, then id) and the first call left starts more than the retry
 * window (30 s) after the last one forgotten — or nothing is left. Then no link, run or chain
 * spans the cut, so the facts of the calls left stay what a rebuild would compute, except the
 * first one's `prev_tool` (its predecessor is gone), which is fixed here. Each forgotten
 * call's contribution is subtracted from every rollup with the same SQL fragments the rebuild
 * uses (./sql.ts). Any other deletion — or one that includes a call the engine has not
 * maintained yet (deferred maintenance; its `run_id` is still 0) — is still correct: the
 * project keeps the mark the `metrics_calls_deleted` trigger sets and the engine rebuilds it
 * on the next read or write. The hook checks the cut itself, so no caller can make it wrong.
 */
import type Database from 'better-sqlite3';
import { RETRY_WINDOW_MS, SLOW_CALL_MS } from '../../shared/metric-constants.js';
import {
  ALL_TIME,
  DAY_SQL,
  DERIVED_TABLES,
  FINE_BUCKET_SQL,
  HEAD_SQL,
  HOUR_SQL,
  LATENCY_SUMS_SQL,
  OC_SQL,
  OCTAVE_SQL,
} from './sql.js';

/**
 * A rollup as `rebuildSql` fills it: key columns as expressions over `calls`, summed columns,
 * one grouped SELECT per variant (e.g. the daily rows and their all-time twins).
 */
interface Rollup {
  table: string;
  keys: Record<string, string>;
  /** The summed columns, and the SELECT list computing them (aliased to those names). */
  sums: [columns: string[], select: string];
  /** The summed column that is 0 when a key has no calls left. */
  count: string;
  where?: string;
  /** Key expressions overridden per variant. */
  variants: Record<string, string>[];
}

const DAY = DAY_SQL('started_ms');
const HOUR = HOUR_SQL('started_ms');
const BOTH_DAYS: Record<string, string>[] = [{}, { day_ms: String(ALL_TIME) }];
const COUNT_N: Pick<Rollup, 'sums' | 'count'> = { sums: [['n'], 'count(*) AS n'], count: 'n' };

/** Every rollup but sessions and chains, table for table with `rebuildSql`. */
const ROLLUPS: Rollup[] = [
  {
    table: 'metrics_daily',
    keys: {
      project_id: 'project_id',
      day_ms: DAY,
      tool_name: 'tool_name',
      client_name: 'client_name',
      oc: OC_SQL(),
      link: 'link',
      head: HEAD_SQL(),
    },
    sums: [
      ['calls', 'units', 'duration', 'l0', 'l1', 'l2', 'l3'],
      `count(*) AS calls, sum(response_bytes) AS units, sum(duration_ms) AS duration,
       ${LATENCY_SUMS_SQL()}`,
    ],
    count: 'calls',
    variants: BOTH_DAYS,
  },
  {
    table: 'metrics_pairs',
    keys: {
      project_id: 'project_id',
      day_ms: DAY,
      client_name: 'client_name',
      from_tool: 'prev_tool',
      to_tool: 'tool_name',
    },
    ...COUNT_N,
    where: 'prev_tool IS NOT NULL AND prev_tool <> tool_name',
    variants: BOTH_DAYS,
  },
  {
    table: 'metrics_sizes',
    keys: {
      project_id: 'project_id',
      day_ms: DAY,
      tool_name: 'tool_name',
      client_name: 'client_name',
      bucket: 'size_bucket',
    },
    sums: [['n', 'units'], 'count(*) AS n, sum(response_bytes) AS units'],
    count: 'n',
    variants: BOTH_DAYS,
  },
  {
    table: 'metrics_durations',
    keys: { project_id: 'project_id', duration_ms: 'duration_ms' },
    ...COUNT_N,
    variants: [{}],
  },
  {
    table: 'metrics_latency',
    keys: {
      project_id: 'project_id',
      tool_name: 'tool_name',
      bucket: FINE_BUCKET_SQL('duration_ms'),
    },
    ...COUNT_N,
    variants: [{}, { tool_name: "''" }],
  },
  {
    table: 'metrics_hourly',
    keys: { project_id: 'project_id', hour_ms: HOUR, oc: OC_SQL(), link: 'link' },
    sums: [['calls', 'units'], 'count(*) AS calls, sum(response_bytes) AS units'],
    count: 'calls',
    variants: [{}],
  },
  {
    table: 'metrics_latency_hourly',
    keys: { project_id: 'project_id', hour_ms: HOUR, bucket: OCTAVE_SQL('duration_ms') },
    ...COUNT_N,
    variants: [{}],
  },
];

/** Derived tables this module keeps exact; anything else in DERIVED_TABLES disables it. */
const KNOWN = new Set([...ROLLUPS.map((r) => r.table), 'metrics_sessions', 'metrics_chains']);

/** Session-row sums, as `rebuildSql` computes them. */
const SESSION_SUMS: Record<string, string> = {
  calls: 'count(*)',
  ok: `sum(${OC_SQL()} = 0)`,
  empty: `sum(${OC_SQL()} = 1)`,
  bad_args: `sum(${OC_SQL()} = 2)`,
  tool_error: `sum(${OC_SQL()} = 3)`,
  crashed: `sum(${OC_SQL()} = 4)`,
  fcs: 'sum(fcs)',
  retries: 'sum(link = 1)',
  repeats: 'sum(link = 2)',
  unknown_links: 'sum(link = 3)',
  chains: `sum(${HEAD_SQL()})`,
  units: 'sum(response_bytes)',
  duration: 'sum(duration_ms)',
  slow: `sum(duration_ms >= ${SLOW_CALL_MS})`,
};

/** What one {@link CallForgetter.forget} did. */
export interface ForgetReport {
  /** Calls deleted. */
  calls: number;
  /** Projects whose derived data was adjusted in place: exact, nothing left to rebuild. */
  adjusted: number[];
  /** Projects left marked in `metrics_dirty` for the engine's rebuild (not a clean cut). */
  rebuild: number[];
}

/** Deletes calls and keeps the metrics exact; see the module comment. */
export interface CallForgetter {
  /**
   * Deletes the calls with these ids, in one transaction (a savepoint inside the caller's).
   * Projects where the ids are a clean cut are adjusted in place; the others are left to the
   * engine's rebuild. Ids that are not stored are ignored.
   */
  forget(ids: Iterable<number>): ForgetReport;
  /**
   * False when the schema has a derived table or column this module does not know (the engine
   * changed without it): then every forget leaves its projects to the rebuild. Tests assert true.
   */
  readonly exact: boolean;
}

type Key = Record<string, string | number>;

/** Builds the forgetter for an open, migrated database (statements prepared once). */
export function createCallForgetter(db: Database.Database): CallForgetter {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS metrics_forget (id INTEGER PRIMARY KEY);
           CREATE TEMP TABLE IF NOT EXISTS metrics_forget_next (id INTEGER PRIMARY KEY)`);
  const columnsOf = (t: string): string[] =>
    db
      .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${t}')`)
      .all()
      .map((c) => c.name);
  const sameSet = (a: string[], b: string[]) =>
    a.length === b.length && a.every((x) => b.includes(x));
  const exact =
    DERIVED_TABLES.every((t) => KNOWN.has(t)) &&
    ROLLUPS.every((r) => sameSet(columnsOf(r.table), [...Object.keys(r.keys), ...r.sums[0]]));

  // Only rows of projects not marked dirty: a marked project is rebuilt from scratch anyway.
  const clean = (source: string) =>
    `main.calls WHERE id IN (SELECT id FROM ${source})
       AND project_id NOT IN (SELECT project_id FROM metrics_dirty)`;

  /** Per rollup and variant: subtract the grouped contribution of `source`, drop zero rows. */
  const rollupOps = (source: string, tables: Rollup[]) =>
    tables.flatMap((r) =>
      r.variants.map((v) => {
        const keys = Object.entries(r.keys).map(([c, e]) => `${v[c] ?? e} AS ${c}`);
        const grouped = `SELECT ${keys.join(', ')}, ${r.sums[1]} FROM ${clean(source)}
          ${r.where ? `AND ${r.where}` : ''} GROUP BY ${keys.map((_, i) => i + 1).join(', ')}`;
        const keyCols = Object.keys(r.keys);
        return [
          db.prepare(
            `UPDATE ${r.table} AS m SET ${r.sums[0].map((c) => `${c} = m.${c} - d.${c}`).join(', ')}
             FROM (${grouped}) AS d WHERE ${keyCols.map((c) => `m.${c} = d.${c}`).join(' AND ')}`,
          ),
          db.prepare(
            `DELETE FROM ${r.table} WHERE ${r.count} <= 0
               AND (${keyCols.join(', ')}) IN (SELECT ${keyCols.join(', ')} FROM (${grouped}))`,
          ),
        ];
      }),
    );
  // Both run before the calls are deleted: the DELETE finds the keys it may empty by grouping
  // the same calls again.
  const forgetOps = rollupOps('temp.metrics_forget', ROLLUPS);
  const pairOps = rollupOps(
    'temp.metrics_forget_next',
    ROLLUPS.filter((r) => r.table === 'metrics_pairs'),
  );

  const fill = db.prepare<[number]>('INSERT OR IGNORE INTO temp.metrics_forget (id) VALUES (?)');
  const clearTemps = db.prepare('DELETE FROM temp.metrics_forget');
  const clearNext = db.prepare('DELETE FROM temp.metrics_forget_next');
  const addNext = db.prepare<[number]>('INSERT INTO temp.metrics_forget_next (id) VALUES (?)');
  const forgotten = db.prepare<
    [],
    { id: number; project_id: number; session_id: string; started_ms: number; run_id: number }
  >(
    `SELECT id, project_id, session_id, started_ms, run_id FROM main.calls
     WHERE id IN (SELECT id FROM temp.metrics_forget) ORDER BY project_id, session_id, started_ms, id`,
  );
  const dirtyNow = db.prepare<[], { project_id: number }>('SELECT project_id FROM metrics_dirty');
  const markDirty = db.prepare<[number]>(
    'INSERT OR IGNORE INTO metrics_dirty (project_id) VALUES (?)',
  );
  const clearDirty = db.prepare<[number]>('DELETE FROM metrics_dirty WHERE project_id = ?');
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
  const clearPrevTool = db.prepare(
    'UPDATE main.calls SET prev_tool = NULL WHERE id IN (SELECT id FROM temp.metrics_forget_next)',
  );
  const dropChains = db.prepare(
    `DELETE FROM metrics_chains WHERE run_id IN (
       SELECT run_id FROM ${clean('temp.metrics_forget')} AND chain = 1)`,
  );
  const deleteCalls = db.prepare(
    'DELETE FROM main.calls WHERE id IN (SELECT id FROM temp.metrics_forget)',
  );

  const sessionKey = ['project_id', 'session_id', 'client_name'];
  const sessionWhere = sessionKey.map((c) => `${c} = @${c}`).join(' AND ');
  const sessionGroups = db.prepare<[], Key & { max_end: number }>(
    `SELECT ${sessionKey.join(', ')}, ${Object.entries(SESSION_SUMS)
      .map(([c, e]) => `${e} AS ${c}`)
      .join(', ')}, max(started_ms + duration_ms) AS max_end
     FROM ${clean('temp.metrics_forget')} GROUP BY 1, 2, 3`,
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

  const forget = db.transaction((ids: Iterable<number>): ForgetReport => {
    clearTemps.run();
    clearNext.run();
    for (const id of ids) fill.run(id);
    const rows = forgotten.all();
    const dirty = new Set(dirtyNow.all().map((d) => d.project_id));
    const projects = new Set(rows.map((r) => r.project_id));
    if (!exact) for (const p of projects) dirty.add(p);

    // Check each session's cut; a session that is not a clean cut sends its project to the
    // rebuild (marked now, so the grouped SELECTs below leave it out).
    for (let i = 0; i < rows.length;) {
      const { project_id: p, session_id: s } = rows[i]!;
      let j = i;
      while (j + 1 < rows.length && rows[j + 1]!.project_id === p && rows[j + 1]!.session_id === s)
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
    for (const p of projects) if (dirty.has(p)) markDirty.run(p);

    for (const [update, drop] of forgetOps) {
      update!.run();
      drop!.run();
    }
    // The first call left of a trimmed session loses its predecessor: no prev_tool, no pair.
    for (const [update, drop] of pairOps) {
      update!.run();
      drop!.run();
    }
    clearPrevTool.run();
    dropChains.run();
    const trimmed: { key: Key; end: boolean }[] = [];
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

    const calls = deleteCalls.run().changes;
    for (const { key, end } of trimmed) {
      sessionFirst.run(key);
      if (end) sessionEnd.run(key);
    }
    const adjusted = [...projects].filter((p) => !dirty.has(p));
    // The deletion trigger marked every project touched; the adjusted ones are exact.
    for (const p of adjusted) clearDirty.run(p);
    clearTemps.run();
    clearNext.run();
    return { calls, adjusted, rebuild: [...projects].filter((p) => dirty.has(p)) };
  });

  return { forget, exact };
}
