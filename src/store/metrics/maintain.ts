/**
 * Keeps the derived per-call facts and the rollups exact as calls arrive, inside the ingest
 * transaction — including late and out-of-order calls, which change their neighbours' facts.
 *
 * For each (project, session, tool) touched by a request, only a window is recomputed: from
 * the call just before the earliest new one (or, when a new call lands inside a run, from that
 * run's first call) to the end of the run holding the latest new one. In the common case —
 * calls arriving in order — that is the previous call plus the new ones, whatever the session
 * length. Every changed call moves its contribution in the rollups from its old key to its new.
 */
import type Database from 'better-sqlite3';
import type { DerivedFacts } from '../../metrics/links.js';
import {
  appendSession,
  comesAfter,
  putChains,
  sessionTail,
  settleTails,
  type AppendSlice,
} from './maintain/append.js';
import { factsOf, type FreshCall, type Row, type Touched } from './maintain/rows.js';
import { writeFactsAndRollups } from './maintain/rollup-contributions.js';
import { forgetTails, tailsOf, type SessionTail } from './maintain/tails.js';
import { recomputeGroup } from './maintain/same-tool-runs.js';
import { prepareMaintainStatements } from './maintain/statements.js';
import { rebuildSql } from './sql.js';

/** The maintainer's public face (see src/store/derived.ts). */
export interface MetricsMaintainer {
  /**
   * Stores new calls (not inserted yet; ids assigned) with their facts, and moves the rollups:
   * in-order sessions from the remembered session ends, the others inserted and then
   * maintained by reading their neighbours.
   */
  storeCalls(fresh: readonly FreshCall[]): void;
  /** Inserts new calls without their facts (deferred maintenance, or a held rebuild covers them). */
  insertRaw(fresh: readonly FreshCall[]): void;
  /** Maintains calls already stored without their facts (deferred ones), handed their rows. */
  onRowsInserted(rows: readonly Row[]): void;
  /** Rebuilds projects whose calls were deleted; returns how many. */
  rebuildDirty(): number;
  /** Rebuilds every derived column and rollup from raw calls (bulk loads). */
  rebuildAll(): void;
}

/** Connections whose rebuilds wait (a retention pass is running): how many holds each. */
const held = new WeakMap<Database.Database, number>();

/**
 * Holds rebuilds of dirty projects on `db` until the returned release is called: a retention
 * pass that cuts a run without a quiet 30 s leaves its project dirty after *every* step, and
 * rebuilding a big project before every apply slice slowed applying 30× for the whole pass
 * (issue 19). While held, new calls of a dirty project are left to the one rebuild after the
 * pass (the project stays marked, and the rebuild recomputes every call from the raw rows);
 * calls of other projects are maintained as ever.
 */
export function holdRebuilds(db: Database.Database): () => void {
  held.set(db, (held.get(db) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.set(db, held.get(db)! - 1);
  };
}

/** Rebuilds every dirty project of `db` in one transaction; returns how many. */
export function rebuildDirtyProjects(db: Database.Database): number {
  forgetTails(db);
  return db.transaction(() => {
    const dirty = db.prepare<[], { project_id: number }>('SELECT project_id FROM metrics_dirty');
    const ids = dirty.all().map((d) => d.project_id);
    for (const id of ids) db.exec(rebuildSql(id));
    return ids.length;
  })();
}

/** Builds the maintainer for one connection (statements prepared once). */
export function createMetricsMaintainer(db: Database.Database): MetricsMaintainer {
  const st = prepareMaintainStatements(db);
  const { sessionPrev, sessionSpan, sessionNext, dirtyProjects, insertCall } = st;
  const tails = tailsOf(db);

  function rebuildDirty(): number {
    const dirty = dirtyProjects.all();
    if (dirty.length > 0) tails.clear();
    for (const { project_id } of dirty) db.exec(rebuildSql(project_id));
    return dirty.length;
  }

  /**
   * Rebuilds dirty projects first (unless held); returns them: their calls are covered by
   * that rebuild, done or to come.
   */
  function rebuildFirst(): Set<number> {
    const rebuilt = new Set(dirtyProjects.all().map((d) => d.project_id));
    // Held: the dirty projects' new calls are skipped all the same, for the rebuild to come.
    if (rebuilt.size > 0 && !held.get(db)) rebuildDirty();
    return rebuilt;
  }

  const insert = (c: FreshCall, f: DerivedFacts | null, sizeBucket: number): void => {
    insertCall.run(
      c.id,
      c.project_id,
      c.batch_id,
      c.session_id,
      c.client_name,
      c.tool_name,
      c.started_at,
      c.started_ms,
      c.duration_ms,
      c.outcome,
      c.response_bytes,
      c.is_empty,
      c.args_hash,
      c.received_ms,
      c.extra,
      c.omitted,
      f?.link ?? 0,
      f?.prev_link ?? 0,
      f?.fcs ?? 0,
      f?.run_id ?? 0,
      f?.chain ?? 0,
      f?.prev_tool ?? null,
      sizeBucket,
    );
  };
  const insertRaw = (fresh: readonly FreshCall[]): void => {
    for (const c of fresh) insert(c, null, 0);
  };

  function storeCalls(fresh: readonly FreshCall[]): void {
    if (fresh.length === 0) return;
    try {
      storeFresh(fresh);
    } catch (error) {
      tails.clear(); // what it remembers may be half of a change that is rolled back
      throw error;
    }
  }

  function storeFresh(fresh: readonly FreshCall[]): void {
    // Dirty projects are rebuilt before anything is stored (the new calls are not in it), or,
    // while a retention pass holds rebuilds, their calls are stored raw for the rebuild after.
    const dirty = new Set(dirtyProjects.all().map((d) => d.project_id));
    let skipped: Set<number> | null = null;
    if (dirty.size > 0) {
      if (held.get(db)) {
        tails.clear();
        skipped = dirty;
      } else rebuildDirty();
    }
    const sessions = new Map<string, FreshCall[]>();
    for (const c of fresh) {
      if (skipped?.has(c.project_id)) {
        insert(c, null, 0);
        continue;
      }
      const k = `${c.project_id}\u0000${c.session_id}`;
      const list = sessions.get(k);
      if (list) list.push(c);
      else sessions.set(k, [c]);
    }
    const slice: AppendSlice = {
      touched: new Map(),
      touch: (row) => {
        let t = slice.touched.get(row.id);
        if (!t) slice.touched.set(row.id, (t = { row, isNew: false, next: factsOf(row) }));
        return t;
      },
      members: new Map(),
      chains: new Map(),
    };
    const appended: SessionTail[] = [];
    const late: FreshCall[] = [];
    for (const list of sessions.values()) {
      list.sort((a, b) => a.started_ms - b.started_ms || a.id - b.id);
      const first = list[0]!;
      const tail = sessionTail(st, tails, first.project_id, first.session_id);
      if (comesAfter(tail, first)) {
        appendSession(st, tail, list, slice);
        appended.push(tail);
      } else {
        // A late call: the general path reads its neighbours back; the session's end is read
        // again next time.
        tails.drop(first.project_id, first.session_id);
        for (const c of list) late.push(c);
      }
    }
    if (slice.touched.size > 0) {
      writeFactsAndRollups(st, slice.touched, (row, f, sizeBucket) =>
        insert(row as FreshCall, f, sizeBucket),
      );
      putChains(st, slice.chains);
      for (const tail of appended) settleTails(tail, slice.touched);
    }
    if (late.length > 0) {
      late.sort((a, b) => a.id - b.id); // appended in id order (see writeFactsAndRollups)
      insertRaw(late);
      maintainRows(
        late.map((c) => ({ ...c })),
        new Set(late.map((c) => c.id)),
      );
    }
  }

  function onRowsInserted(rows: readonly Row[]): void {
    if (rows.length === 0) return;
    try {
      const rebuilt = rebuildFirst();
      const fresh = rebuilt.size > 0 ? rows.filter((r) => !rebuilt.has(r.project_id)) : [...rows];
      if (fresh.length > 0) maintainRows(fresh, new Set(fresh.map((r) => r.id)));
    } catch (error) {
      tails.clear();
      throw error;
    }
  }

  /** Maintains the new calls `fresh` (their rows as stored, facts not yet set). */
  function maintainRows(fresh: Row[], ids: ReadonlySet<number>): void {
    const touched = new Map<number, Touched>();
    const touch = (row: Row): Touched => {
      let t = touched.get(row.id);
      if (!t) touched.set(row.id, (t = { row, isNew: false, next: factsOf(row) }));
      return t;
    };
    for (const row of fresh) {
      touched.set(row.id, {
        row,
        isNew: true,
        next: { link: 0, prev_link: 0, fcs: 0, run_id: row.id, chain: 0, prev_tool: null },
      });
    }
    fresh.sort((a, b) => a.started_ms - b.started_ms || a.id - b.id);

    const groups = new Map<string, Row[]>();
    const sessions = new Map<string, Row[]>();
    for (const r of fresh) {
      tails.drop(r.project_id, r.session_id); // its end is read again when next needed
      const g = JSON.stringify([r.project_id, r.session_id, r.tool_name]);
      const s = JSON.stringify([r.project_id, r.session_id]);
      (groups.get(g) ?? groups.set(g, []).get(g)!).push(r);
      (sessions.get(s) ?? sessions.set(s, []).get(s)!).push(r);
    }

    // 1. Same-tool links, first-call success, runs, chains.
    for (const group of groups.values()) recomputeGroup(st, group, touched, touch);

    // 2. Session order across tools: every call from the first new one to the last new one
    //    (in order, old and new), the call before them and the call after.
    for (const list of sessions.values()) {
      const first = list[0]!;
      const last = list.at(-1)!;
      const { project_id: p, session_id: s } = first;
      let prevTool =
        sessionPrev.get(p, s, first.started_ms, first.started_ms, first.id)?.tool_name ?? null;
      let prevIsNew = false;
      for (const row of sessionSpan.iterate(
        p,
        s,
        first.started_ms,
        first.started_ms,
        first.id,
        last.started_ms,
      )) {
        if (ids.has(row.id)) {
          touched.get(row.id)!.next.prev_tool = prevTool;
          prevIsNew = true;
        } else {
          if (prevIsNew) touch(row).next.prev_tool = prevTool;
          prevIsNew = false;
        }
        prevTool = row.tool_name;
      }
      const n = sessionNext.get(p, s, last.started_ms, last.started_ms, last.id);
      if (n && !ids.has(n.id)) touch(n).next.prev_tool = last.tool_name;
    }

    // 3. Write facts and move contributions.
    writeFactsAndRollups(st, touched);
  }

  return {
    storeCalls,
    insertRaw,
    onRowsInserted,
    rebuildDirty,
    rebuildAll: () => {
      tails.clear();
      db.exec(rebuildSql());
    },
  };
}
