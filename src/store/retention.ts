/**
 * Retention: the database never grows without bound.
 *
 * Two caps on raw calls, whichever is hit first (a `settings` row, key `retention`):
 * - age: calls that arrived more than `max_age_days` ago (default 30) are deleted;
 * - size: past `max_calls` calls (default 2,000,000) the oldest are deleted.
 * Startups, the ingest log (batches) and rejected items are deleted by age alone; the latest
 * startup of every project is always kept, because it defines the registered tool set.
 *
 * What is deleted together: a session's calls go in whole *runs* — from the session's first
 * call up to a point where the next remaining call started more than 30 s later (longer than
 * the retry window), or the whole session. So a session that ended before the cutoff goes
 * whole, and a long-lived session (one server process running for weeks) loses only its old
 * runs. No retry link, retry chain or ≤ 30 s run ever spans such a cut, so the derived
 * per-call facts of the calls that remain stay exact and the rollups are adjusted in the same
 * transaction (see {@link createDerivedAdjuster}) — no rebuild. Only when more than `chunkRows`
 * calls in a row have no quiet 30 s between them is a run cut without one; then the metrics
 * engine's deletion trigger marks the project and the engine rebuilds it exactly (its
 * documented path, seconds per million calls) — counted in {@link PassReport.forced_cuts}.
 *
 * Applied without blocking ingest: a pass deletes in small transactions (≤ `chunkRows` calls,
 * a few milliseconds each) and yields to the event loop between them, so ingest requests
 * interleave; passes run on a timer (`.unref()`ed).
 *
 * Clear-all deletes every row of every table except `settings`, in one transaction.
 */
import type Database from 'better-sqlite3';
import { RETRY_WINDOW_MS, SLOW_CALL_MS } from '../metrics/constants.js';
import type { Store } from './index.js';
import {
  ALL_TIME,
  DAY_SQL,
  DERIVED_TABLES,
  FINE_BUCKET_SQL,
  HEAD_SQL,
  OC_SQL,
} from './metrics/sql.js';

/** The retention setting, as stored (JSON) and served by the API. */
export interface RetentionSettings {
  /** Keep at most this many calls. */
  max_calls: number;
  /** Delete calls (and log entries) that arrived more than this many days ago. */
  max_age_days: number;
}

export const DEFAULT_RETENTION: Readonly<RetentionSettings> = {
  max_calls: 2_000_000,
  max_age_days: 30,
};

/** Accepted ranges; anything outside is refused rather than clamped. */
export const RETENTION_BOUNDS = {
  max_calls: { min: 1_000, max: 1_000_000_000 },
  max_age_days: { min: 1, max: 3_650 },
} as const;

const SETTINGS_KEY = 'retention';
const DAY_MS = 86_400_000;

/** A setting that failed validation; the message names the field. */
export class RetentionSettingsError extends Error {}

/** Validates a partial update against the current settings; throws {@link RetentionSettingsError}. */
export function mergeRetentionSettings(
  current: RetentionSettings,
  update: unknown,
): RetentionSettings {
  if (typeof update !== 'object' || update === null || Array.isArray(update)) {
    throw new RetentionSettingsError(
      'expected a JSON object such as {"max_calls":2000000,"max_age_days":30}',
    );
  }
  const next = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (key !== 'max_calls' && key !== 'max_age_days') {
      throw new RetentionSettingsError(
        `${key}: unknown setting (expected max_calls or max_age_days)`,
      );
    }
    const { min, max } = RETENTION_BOUNDS[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw new RetentionSettingsError(
        `${key}: expected an integer from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}, received ${JSON.stringify(value)}`,
      );
    }
    next[key] = value;
  }
  return next;
}

/** The stored setting, or the defaults (also when the stored value is unreadable). */
export function readRetentionSettings(db: Database.Database): RetentionSettings {
  const row = db
    .prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?')
    .get(SETTINGS_KEY);
  if (!row) return { ...DEFAULT_RETENTION };
  try {
    return mergeRetentionSettings(DEFAULT_RETENTION, JSON.parse(row.value));
  } catch {
    return { ...DEFAULT_RETENTION };
  }
}

/** Validates and stores a partial update; returns the new settings. */
export function writeRetentionSettings(db: Database.Database, update: unknown): RetentionSettings {
  const next = mergeRetentionSettings(readRetentionSettings(db), update);
  db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(SETTINGS_KEY, JSON.stringify(next));
  return next;
}

/** Rows deleted, by table. */
export interface DeletedCounts {
  calls: number;
  startups: number;
  batches: number;
  rejections: number;
}

/** What one pass did. */
export interface PassReport {
  started_ms: number;
  finished_ms: number;
  settings: RetentionSettings;
  deleted: DeletedCounts;
  /** Transactions run. */
  steps: number;
  /** The longest single transaction: how long ingest could have waited behind retention. */
  longest_step_ms: number;
  /** Runs cut without a quiet 30 s (the metrics engine rebuilds those projects). */
  forced_cuts: number;
  /** Set when a step failed (disk full, say); the pass stops and the next one retries. */
  error?: string;
}

/** Options for {@link createRetention}. */
export interface RetentionOptions {
  /** Clock (tests). */
  now?: () => number;
  /** Calls deleted per transaction at most (default 500: 10–40 ms). */
  chunkRows?: number;
  /** Time between passes. Default 60 s. */
  intervalMs?: number;
  /** Delay before the first pass, so startup never pays for it. Default 10 s. */
  firstDelayMs?: number;
  /** Told about every finished pass (logs, tests). */
  onPass?: (report: PassReport) => void;
}

/** A retention runner for one open store. */
export interface Retention {
  /** Starts the timer. */
  start(): void;
  /** Stops the timer; a pass in progress stops after its current transaction. */
  stop(): void;
  /** Runs a pass now (or joins the one running); resolves with its report. */
  runPass(): Promise<PassReport>;
  /** Runs a pass soon, e.g. after the settings changed. */
  schedule(): void;
  readonly lastPass: PassReport | null;
  readonly running: boolean;
}

const registry = new WeakMap<Store, Retention>();

/** The retention runner started for `store` by the server, if any (for the admin routes). */
export const retentionFor = (store: Store): Retention | undefined => registry.get(store);

interface SessionHeadRow {
  id: number;
  started_ms: number;
  received_ms: number;
}

/**
 * One rollup table as the metrics engine fills it (src/store/metrics/sql.ts `rebuildSql`):
 * key columns and summed columns as expressions over `calls`, one grouped SELECT per variant
 * (the daily rows and their all-time twins), `count` the column that reaches 0 when a key has
 * no calls left.
 */
interface RollupSpec {
  table: string;
  keys: [column: string, expr: string][];
  sums: [column: string, expr: string][];
  count: string;
  where?: string;
  /** Key expressions overridden per variant, e.g. `{ day_ms: ALL_TIME }`. */
  variants: Record<string, string>[];
}

const DAY = DAY_SQL('started_ms');
const BOTH_DAYS = [{ day_ms: DAY }, { day_ms: String(ALL_TIME) }];

/** The engine's rollups, mirrored key for key from `rebuildSql` (kept honest by a test). */
const ROLLUPS: RollupSpec[] = [
  {
    table: 'metrics_daily',
    keys: [
      ['project_id', 'project_id'],
      ['day_ms', DAY],
      ['tool_name', 'tool_name'],
      ['client_name', 'client_name'],
      ['oc', OC_SQL()],
      ['link', 'link'],
      ['head', HEAD_SQL()],
    ],
    sums: [
      ['calls', 'count(*)'],
      ['units', 'sum(response_bytes)'],
      ['duration', 'sum(duration_ms)'],
      ['l0', 'sum(duration_ms < 100)'],
      ['l1', 'sum(duration_ms >= 100 AND duration_ms < 500)'],
      ['l2', `sum(duration_ms >= 500 AND duration_ms < ${SLOW_CALL_MS})`],
      ['l3', `sum(duration_ms >= ${SLOW_CALL_MS})`],
    ],
    count: 'calls',
    variants: BOTH_DAYS,
  },
  {
    table: 'metrics_pairs',
    keys: [
      ['project_id', 'project_id'],
      ['day_ms', DAY],
      ['client_name', 'client_name'],
      ['from_tool', 'prev_tool'],
      ['to_tool', 'tool_name'],
    ],
    sums: [['n', 'count(*)']],
    count: 'n',
    where: 'prev_tool IS NOT NULL AND prev_tool <> tool_name',
    variants: BOTH_DAYS,
  },
  {
    table: 'metrics_sizes',
    keys: [
      ['project_id', 'project_id'],
      ['day_ms', DAY],
      ['tool_name', 'tool_name'],
      ['client_name', 'client_name'],
      ['bucket', 'size_bucket'],
    ],
    sums: [
      ['n', 'count(*)'],
      ['units', 'sum(response_bytes)'],
    ],
    count: 'n',
    variants: BOTH_DAYS,
  },
  {
    table: 'metrics_durations',
    keys: [
      ['project_id', 'project_id'],
      ['day_ms', DAY],
      ['duration_ms', 'duration_ms'],
    ],
    sums: [['n', 'count(*)']],
    count: 'n',
    variants: BOTH_DAYS,
  },
  {
    table: 'metrics_latency',
    keys: [
      ['project_id', 'project_id'],
      ['day_ms', DAY],
      ['tool_name', 'tool_name'],
      ['bucket', FINE_BUCKET_SQL('duration_ms')],
    ],
    sums: [['n', 'count(*)']],
    count: 'n',
    variants: [
      { tool_name: "''" },
      { day_ms: String(ALL_TIME) },
      { day_ms: String(ALL_TIME), tool_name: "''" },
    ],
  },
];

/** Derived tables handled outside {@link ROLLUPS}: sessions, chains, and the startup totals. */
const HANDLED = new Set([
  ...ROLLUPS.map((r) => r.table),
  'metrics_sessions',
  'metrics_chains',
  'metrics_dirty',
  'metrics_startup_totals', // follows a deleted startup by foreign-key cascade
]);

/**
 * Keeps the metrics engine's rollups exact when whole runs of calls are deleted, instead of
 * letting its deletion trigger mark the project for a full rebuild (seconds per million calls,
 * paid by the next ingest request). It mirrors the rollups as of this writing; if the engine
 * has a derived table or column it does not know, it returns null and the engine's rebuild
 * stays the (correct, slower) path. test/reliability/retention.test.ts checks the result
 * equals a rebuild from scratch. Better owned by the metrics engine itself, one day.
 */
export function createDerivedAdjuster(db: Database.Database): {
  /** Adjusts for the calls listed in `temp.retention_doomed`, before they are deleted. */
  beforeDelete(): Set<number>;
  /** Fixes the first remaining call of each trimmed session and clears the dirty marks. */
  afterDelete(projects: Set<number>, trimmed: { projectId: number; sessionId: string }[]): void;
} | null {
  const tables = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'metrics\\_%' ESCAPE '\\'",
    )
    .all()
    .map((t) => t.name);
  const callCols = new Set(
    db
      .prepare<[], { name: string }>('PRAGMA table_info(calls)')
      .all()
      .map((c) => c.name),
  );
  const derivedCols = ['link', 'prev_link', 'fcs', 'run_id', 'chain', 'prev_tool', 'size_bucket'];
  const columnsOf = (t: string): string[] =>
    db
      .prepare<[], { name: string }>(`PRAGMA table_info(${t})`)
      .all()
      .map((c) => c.name);
  const specMatches = (r: RollupSpec): boolean => {
    const cols = columnsOf(r.table);
    const mine = [...r.keys, ...r.sums].map(([c]) => c);
    return cols.length === mine.length && mine.every((c) => cols.includes(c));
  };
  if (
    tables.some((t) => !HANDLED.has(t)) ||
    DERIVED_TABLES.some((t) => !HANDLED.has(t)) ||
    ![...HANDLED].every((t) => tables.includes(t)) ||
    !derivedCols.every((c) => callCols.has(c)) ||
    !ROLLUPS.every(specMatches)
  ) {
    return null;
  }

  db.exec('CREATE TEMP TABLE IF NOT EXISTS retention_fix (id INTEGER PRIMARY KEY)');
  type Group = Record<string, number | string | null> & { project_id: number };

  /** Per rollup and variant: the grouped SELECT over `source`, the subtraction, the cleanup. */
  const rollupOps = (source: string, only?: string) =>
    ROLLUPS.filter((r) => !only || r.table === only).flatMap((r) => {
      const keyWhere = r.keys.map(([c]) => `${c} = @${c}`).join(' AND ');
      const sub = db.prepare(
        `UPDATE ${r.table} SET ${r.sums.map(([c]) => `${c} = ${c} - @${c}`).join(', ')} WHERE ${keyWhere}`,
      );
      const drop = db.prepare(`DELETE FROM ${r.table} WHERE ${keyWhere} AND ${r.count} <= 0`);
      return r.variants.map((v) => ({
        groups: db.prepare<[], Group>(
          `SELECT ${r.keys.map(([c, e]) => `${v[c] ?? e} AS ${c}`).join(', ')},
                  ${r.sums.map(([c, e]) => `${e} AS ${c}`).join(', ')}
           FROM calls WHERE id IN (SELECT id FROM ${source})${r.where ? ` AND ${r.where}` : ''}
           GROUP BY ${r.keys.map((_, i) => i + 1).join(', ')}`,
        ),
        sub,
        drop,
      }));
    });
  const doomedOps = rollupOps('temp.retention_doomed');
  const fixOps = rollupOps('temp.retention_fix', 'metrics_pairs');

  const doomed = 'id IN (SELECT id FROM temp.retention_doomed)';
  const dirty = db.prepare<[], { project_id: number }>('SELECT project_id FROM metrics_dirty');
  const clearDirty = db.prepare<[number]>('DELETE FROM metrics_dirty WHERE project_id = ?');
  const projectsOf = db.prepare<[], { project_id: number }>(
    `SELECT DISTINCT project_id FROM calls WHERE ${doomed}`,
  );
  const dropChains = db.prepare(
    `DELETE FROM metrics_chains WHERE run_id IN (SELECT DISTINCT run_id FROM calls WHERE ${doomed} AND chain = 1)`,
  );

  const sessionGroups = db.prepare<[], Group & { max_end: number }>(
    `SELECT project_id, session_id, client_name, count(*) AS calls, sum(${OC_SQL()} = 0) AS ok,
            sum(${OC_SQL()} = 1) AS empty, sum(${OC_SQL()} = 2) AS bad_args, sum(${OC_SQL()} = 3) AS tool_error,
            sum(${OC_SQL()} = 4) AS crashed, sum(fcs) AS fcs, sum(link = 1) AS retries, sum(link = 2) AS repeats,
            sum(link = 3) AS unknown_links, sum(${HEAD_SQL()}) AS chains, sum(response_bytes) AS units,
            sum(duration_ms) AS duration, sum(duration_ms >= ${SLOW_CALL_MS}) AS slow,
            max(started_ms + duration_ms) AS max_end
     FROM calls WHERE ${doomed} GROUP BY 1, 2, 3`,
  );
  const sessionKey =
    'project_id = @project_id AND session_id = @session_id AND client_name = @client_name';
  const sessionSub = db.prepare(
    `UPDATE metrics_sessions SET calls = calls - @calls, ok = ok - @ok, empty = empty - @empty,
       bad_args = bad_args - @bad_args, tool_error = tool_error - @tool_error, crashed = crashed - @crashed,
       fcs = fcs - @fcs, retries = retries - @retries, repeats = repeats - @repeats,
       unknown_links = unknown_links - @unknown_links, chains = chains - @chains, units = units - @units,
       duration = duration - @duration, slow = slow - @slow
     WHERE ${sessionKey} RETURNING calls, last_end_ms`,
  );
  const sessionDrop = db.prepare(`DELETE FROM metrics_sessions WHERE ${sessionKey}`);
  // Run after the delete: what remains of a trimmed session.
  const sessionFirst = db.prepare(
    `UPDATE metrics_sessions SET first_ms = (
       SELECT started_ms FROM calls INDEXED BY calls_by_session
       WHERE project_id = @project_id AND session_id = @session_id AND client_name = @client_name
       ORDER BY started_ms, id LIMIT 1)
     WHERE ${sessionKey}`,
  );
  const sessionEnd = db.prepare(
    `UPDATE metrics_sessions SET last_end_ms = (
       SELECT max(started_ms + duration_ms) FROM calls
       WHERE project_id = @project_id AND session_id = @session_id AND client_name = @client_name)
     WHERE ${sessionKey}`,
  );
  const firstOfSession = db.prepare<[number, string], { id: number; prev_tool: string | null }>(
    `SELECT id, prev_tool FROM calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? ORDER BY started_ms, id LIMIT 1`,
  );
  const clearPrevTool = db.prepare<[number]>('UPDATE calls SET prev_tool = NULL WHERE id = ?');
  const addFix = db.prepare<[number]>('INSERT INTO temp.retention_fix (id) VALUES (?)');
  const clearFix = db.prepare('DELETE FROM temp.retention_fix');

  const apply = (ops: typeof doomedOps, skip: Set<number>): void => {
    for (const op of ops) {
      for (const g of op.groups.all()) {
        if (skip.has(g.project_id)) continue;
        op.sub.run(g);
        op.drop.run(g);
      }
    }
  };

  let pendingSessions: { key: Record<string, unknown>; recomputeEnd: boolean }[] = [];
  let skip = new Set<number>();

  return {
    beforeDelete() {
      // A project already marked is rebuilt by the engine anyway: leave it alone.
      skip = new Set(dirty.all().map((d) => d.project_id));
      const touched = new Set(projectsOf.all().map((p) => p.project_id));
      apply(doomedOps, skip);
      if ([...touched].some((p) => !skip.has(p))) dropChains.run();
      pendingSessions = [];
      for (const { max_end, ...g } of sessionGroups.all()) {
        if (skip.has(g.project_id)) continue;
        const left = sessionSub.get(g) as { calls: number; last_end_ms: number } | undefined;
        if (!left) continue;
        const key = {
          project_id: g.project_id,
          session_id: g.session_id,
          client_name: g.client_name,
        };
        if (left.calls <= 0) sessionDrop.run(key);
        else pendingSessions.push({ key, recomputeEnd: max_end >= left.last_end_ms });
      }
      return touched;
    },
    afterDelete(projects, trimmed) {
      for (const { key, recomputeEnd } of pendingSessions) {
        sessionFirst.run(key);
        if (recomputeEnd) sessionEnd.run(key);
      }
      // The first remaining call of a trimmed session had a deleted predecessor: as a rebuild
      // would, it now has none, and its tool pair goes.
      clearFix.run();
      const fixed: number[] = [];
      for (const { projectId, sessionId } of trimmed) {
        if (skip.has(projectId)) continue;
        const first = firstOfSession.get(projectId, sessionId);
        if (!first || first.prev_tool === null) continue;
        addFix.run(first.id);
        fixed.push(first.id);
      }
      if (fixed.length) {
        apply(fixOps, skip);
        for (const id of fixed) clearPrevTool.run(id);
      }
      clearFix.run();
      for (const p of projects) if (!skip.has(p)) clearDirty.run(p);
    },
  };
}

/** Creates the retention runner for `store` (not started). */
export function createRetention(store: Store, options: RetentionOptions = {}): Retention {
  const { db } = store;
  const now = options.now ?? Date.now;
  // ~500 calls is 10–40 ms of deleting (five indexes, the rollups, sometimes a WAL checkpoint).
  const chunkRows = Math.max(1, options.chunkRows ?? 500);
  const intervalMs = options.intervalMs ?? 60_000;
  const firstDelayMs = options.firstDelayMs ?? 10_000;

  db.exec('CREATE TEMP TABLE IF NOT EXISTS retention_doomed (id INTEGER PRIMARY KEY)');
  const adjuster = createDerivedAdjuster(db);

  const oldestAfter = db.prepare<
    [number],
    { id: number; project_id: number; session_id: string; received_ms: number }
  >('SELECT id, project_id, session_id, received_ms FROM calls WHERE id > ? ORDER BY id LIMIT 1');
  const sessionHead = db.prepare<[number, string, number], SessionHeadRow>(
    `SELECT id, started_ms, received_ms FROM calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? ORDER BY started_ms, id LIMIT ?`,
  );
  const idBounds = db.prepare<[], { lo: number | null; hi: number | null }>(
    'SELECT min(id) AS lo, max(id) AS hi FROM calls',
  );
  const countCalls = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM calls');
  const clearDoomed = db.prepare('DELETE FROM temp.retention_doomed');
  const addDoomed = db.prepare<[number]>('INSERT INTO temp.retention_doomed (id) VALUES (?)');
  const deleteDoomed = db.prepare(
    'DELETE FROM calls WHERE id IN (SELECT id FROM temp.retention_doomed)',
  );

  const oldStartups = db.prepare<[number, number], { id: number }>(
    `SELECT s.id FROM startups s WHERE s.received_ms < ?
       AND s.id < (SELECT max(l.id) FROM startups l WHERE l.project_id = s.project_id)
     ORDER BY s.id LIMIT ?`,
  );
  const deleteStartup = db.prepare<[number]>('DELETE FROM startups WHERE id = ?');
  const deleteRejections = db.prepare<[number, number]>(
    'DELETE FROM rejections WHERE id IN (SELECT id FROM rejections WHERE received_ms < ? ORDER BY received_ms LIMIT ?)',
  );
  const batchesAfter = db.prepare<[number, number], { id: number; received_ms: number }>(
    'SELECT id, received_ms FROM batches WHERE id > ? ORDER BY id LIMIT ?',
  );
  const firstCallPast = db.prepare<[number], { id: number }>(
    'SELECT id FROM calls WHERE batch_id > ? ORDER BY id LIMIT 1',
  );
  const callBatchesBelow = db.prepare<[number], { b: number }>(
    'SELECT DISTINCT batch_id AS b FROM calls WHERE id < ?',
  );
  const firstStartupPast = db.prepare<[number], { id: number }>(
    'SELECT id FROM startups WHERE batch_id > ? ORDER BY id LIMIT 1',
  );
  const startupBatchesBelow = db.prepare<[number], { b: number }>(
    'SELECT DISTINCT batch_id AS b FROM startups WHERE id < ?',
  );
  const rejectionBatchesBefore = db.prepare<[number], { b: number }>(
    'SELECT DISTINCT batch_id AS b FROM rejections WHERE received_ms < ?',
  );
  const deleteBatch = db.prepare<[number]>('DELETE FROM batches WHERE id = ?');

  /** State of one pass. */
  interface Pass {
    cutoff: number;
    /** Calls over the size cap still to delete (counted once per pass). */
    overBy: number;
    /** Sessions with nothing deletable this pass, by `project\0session`. */
    keep: Set<string>;
    /** Oldest call id not yet looked at. */
    cursor: number;
    callsDone: boolean;
    forcedCuts: number;
  }

  /** Picks the next run of calls to delete, or null when the calls are within both caps. */
  function nextRun(pass: Pass): {
    ids: number[];
    projectId: number;
    sessionId: string;
    trimmed: boolean;
    forced: boolean;
  } | null {
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
        const next = rows[i + 1];
        if (next ? next.started_ms - rows[i]!.started_ms > RETRY_WINDOW_MS : whole) cut = i;
      }
      let forced = false;
      if (cut === -1 && !whole && (bySize || newest < pass.cutoff)) {
        // More than chunkRows calls without a quiet 30 s: cut anyway, and let the metrics
        // engine rebuild the project (see the module comment).
        cut = chunkRows - 1;
        forced = true;
      }
      if (cut === -1) {
        pass.keep.add(key);
        pass.cursor = oldest.id;
        continue;
      }
      return {
        ids: rows.slice(0, cut + 1).map((r) => r.id),
        projectId: oldest.project_id,
        sessionId: oldest.session_id,
        trimmed: !(whole && cut === rows.length - 1),
        forced,
      };
    }
  }

  const callsStep = db.transaction((pass: Pass): number => {
    const run = nextRun(pass);
    if (!run) {
      pass.callsDone = true;
      return 0;
    }
    clearDoomed.run();
    for (const id of run.ids) addDoomed.run(id);
    // A forced cut may split a retry chain: leave the project marked for the engine's rebuild.
    const adjust = run.forced ? null : adjuster;
    const projects = adjust?.beforeDelete() ?? new Set<number>();
    deleteDoomed.run();
    adjust?.afterDelete(
      projects,
      run.trimmed ? [{ projectId: run.projectId, sessionId: run.sessionId }] : [],
    );
    clearDoomed.run();
    if (run.forced) pass.forcedCuts++;
    pass.overBy -= run.ids.length;
    return run.ids.length;
  });

  const startupsStep = db.transaction((cutoff: number): number => {
    const ids = oldStartups.all(cutoff, chunkRows);
    for (const { id } of ids) deleteStartup.run(id);
    return ids.length;
  });

  const rejectionsStep = db.transaction(
    (cutoff: number): number => deleteRejections.run(cutoff, chunkRows).changes,
  );

  /**
   * Batches are the parent of calls, startups and rejections, which have no index on
   * `batch_id`: with foreign keys on, every deleted batch would scan all calls. Instead this
   * uses arrival order — row ids of batches, calls and startups all grow together, so the
   * children of batches up to B are the rows before the first one past B — to find which old
   * batches still have children (a kept startup, a run that straddles the cutoff), and deletes
   * the rest with the (per-connection) foreign-key check off. Cost: the remaining rows older
   * than the candidates, which retention itself keeps few.
   */
  function batchesStep(pass: { cutoff: number; batchCursor: number }): {
    deleted: number;
    more: boolean;
  } {
    const candidates: number[] = [];
    let more = false;
    for (const b of batchesAfter.all(pass.batchCursor, chunkRows)) {
      if (b.received_ms >= pass.cutoff) break;
      candidates.push(b.id);
    }
    if (candidates.length === chunkRows) more = true;
    if (candidates.length === 0) return { deleted: 0, more: false };
    const last = candidates.at(-1)!;
    const pinned = new Set<number>();
    const callEnd = firstCallPast.get(last)?.id ?? Number.MAX_SAFE_INTEGER;
    for (const { b } of callBatchesBelow.all(callEnd)) pinned.add(b);
    const startupEnd = firstStartupPast.get(last)?.id ?? Number.MAX_SAFE_INTEGER;
    for (const { b } of startupBatchesBelow.all(startupEnd)) pinned.add(b);
    for (const { b } of rejectionBatchesBefore.all(pass.cutoff)) pinned.add(b);
    pass.batchCursor = last;
    db.pragma('foreign_keys = OFF');
    try {
      return {
        deleted: db.transaction(() => {
          let n = 0;
          for (const id of candidates) if (!pinned.has(id)) n += deleteBatch.run(id).changes;
          return n;
        })(),
        more,
      };
    } finally {
      db.pragma('foreign_keys = ON');
    }
  }

  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let current: Promise<PassReport> | null = null;
  let lastPass: PassReport | null = null;

  const yieldToIo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  async function pass(): Promise<PassReport> {
    const settings = readRetentionSettings(db);
    const report: PassReport = {
      started_ms: now(),
      finished_ms: 0,
      settings,
      deleted: { calls: 0, startups: 0, batches: 0, rejections: 0 },
      steps: 0,
      longest_step_ms: 0,
      forced_cuts: 0,
    };
    const timed = <T>(fn: () => T): T => {
      const t0 = performance.now();
      try {
        return fn();
      } finally {
        report.steps++;
        report.longest_step_ms = Math.max(report.longest_step_ms, performance.now() - t0);
      }
    };
    try {
      const cutoff = now() - settings.max_age_days * DAY_MS;
      const { lo, hi } = idBounds.get()!;
      // max−min+1 bounds the count from above; count exactly only when that bound is over.
      const overBy =
        lo !== null && hi !== null && hi - lo + 1 > settings.max_calls
          ? timed(() => countCalls.get()!.n) - settings.max_calls
          : 0;
      const state: Pass = {
        cutoff,
        overBy,
        keep: new Set(),
        cursor: 0,
        callsDone: false,
        forcedCuts: 0,
      };
      while (!state.callsDone && !stopped) {
        report.deleted.calls += timed(() => callsStep(state));
        report.forced_cuts = state.forcedCuts;
        await yieldToIo();
      }
      for (const [table, step] of [
        ['startups', () => startupsStep(cutoff)],
        ['rejections', () => rejectionsStep(cutoff)],
      ] as const) {
        for (;;) {
          if (stopped) break;
          const n = timed(step);
          report.deleted[table] += n;
          await yieldToIo();
          if (n < chunkRows) break;
        }
      }
      const batchPass = { cutoff, batchCursor: 0 };
      while (!stopped) {
        const { deleted, more } = timed(() => batchesStep(batchPass));
        report.deleted.batches += deleted;
        await yieldToIo();
        if (!more) break;
      }
    } catch (error) {
      report.error = error instanceof Error ? error.message : String(error);
    }
    report.finished_ms = now();
    lastPass = report;
    options.onPass?.(report);
    return report;
  }

  function runPass(): Promise<PassReport> {
    if (current) return current;
    const wasStopped = stopped;
    stopped = false;
    current = pass().finally(() => {
      current = null;
      if (wasStopped && !timer) stopped = true;
    });
    return current;
  }

  function arm(delay: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      // Settings may have changed while a pass ran: let it finish, then run a fresh one.
      void (current ?? Promise.resolve()).then(() => runPass()).finally(() => arm(intervalMs));
    }, delay);
    timer.unref();
  }

  const retention: Retention = {
    start() {
      if (!stopped) return;
      stopped = false;
      registry.set(store, retention);
      arm(firstDelayMs);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      if (registry.get(store) === retention) registry.delete(store);
    },
    runPass,
    schedule() {
      if (!stopped) arm(0);
    },
    get lastPass() {
      return lastPass;
    },
    get running() {
      return current !== null;
    },
  };
  return retention;
}

/** Rows removed by {@link clearAll}, by table. */
export type ClearReport = Record<string, number>;

/**
 * Deletes every row of every table except `settings`, atomically. Triggers on those tables
 * (the metrics engine's deletion marker) are dropped and recreated inside the same
 * transaction, so SQLite can truncate each table instead of visiting every row; then the
 * file is compacted (VACUUM on what is left — nothing — is fast).
 */
export function clearAll(store: Store): ClearReport {
  const { db } = store;
  const tables = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'settings'",
    )
    .all()
    .map((t) => t.name);
  const triggers = db
    .prepare<[], { name: string; sql: string }>(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger'",
    )
    .all();
  const report: ClearReport = {};
  db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      for (const t of triggers) db.exec(`DROP TRIGGER "${t.name.replaceAll('"', '""')}"`);
      for (const name of tables) {
        const quoted = `"${name.replaceAll('"', '""')}"`;
        report[name] = db.prepare(`DELETE FROM ${quoted}`).run().changes;
      }
      for (const t of triggers) db.exec(t.sql);
    })();
  } finally {
    db.pragma('foreign_keys = ON');
  }
  try {
    db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // Compaction is a nicety: the rows are gone either way, and freed pages are reused.
  }
  return report;
}
