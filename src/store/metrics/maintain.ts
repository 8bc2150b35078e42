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
import { outcomeClass } from '../../metrics/aggregate.js';
import { RETRY_WINDOW_MS, SLOW_CALL_MS } from '../../metrics/constants.js';
import { latencyBucketIndex } from '../../metrics/latency.js';
import {
  firstCallSuccess,
  LINK,
  linkCode,
  type DerivedFacts,
  type LinkCode,
} from '../../metrics/links.js';
import { sizeBucket } from '../../metrics/sizes.js';
import { utcDay } from '../../metrics/time.js';
import { rebuildSql } from './sql.js';

/** A call row with its stored facts. */
interface Row {
  id: number;
  project_id: number;
  session_id: string;
  client_name: string;
  tool_name: string;
  started_ms: number;
  duration_ms: number;
  outcome: string;
  response_bytes: number;
  is_empty: number;
  args_hash: string;
  link: LinkCode;
  prev_link: LinkCode;
  fcs: 0 | 1;
  run_id: number;
  chain: 0 | 1;
  prev_tool: string | null;
}

interface Touched {
  row: Row;
  /** True for a call inserted by this request (no contribution yet). */
  isNew: boolean;
  next: DerivedFacts;
}

const COLS = `id, project_id, session_id, client_name, tool_name, started_ms, duration_ms, outcome,
  response_bytes, is_empty, args_hash, link, prev_link, fcs, run_id, chain, prev_tool`;

const factsOf = (r: Row): DerivedFacts => ({
  link: r.link,
  prev_link: r.prev_link,
  fcs: r.fcs,
  run_id: r.run_id,
  chain: r.chain,
  prev_tool: r.prev_tool,
});

const sameFacts = (a: DerivedFacts, b: DerivedFacts): boolean =>
  a.link === b.link &&
  a.prev_link === b.prev_link &&
  a.fcs === b.fcs &&
  a.run_id === b.run_id &&
  a.chain === b.chain &&
  a.prev_tool === b.prev_tool;

const after = (
  a: { started_ms: number; id: number },
  b: { started_ms: number; id: number },
): boolean => a.started_ms > b.started_ms || (a.started_ms === b.started_ms && a.id > b.id);

/** Accumulates signed deltas per key, flushed as one upsert each. */
class Deltas {
  private readonly map = new Map<string, { key: unknown[]; v: number[] }>();
  constructor(private readonly width: number) {}
  add(key: unknown[], v: number[], sign: number): void {
    const k = JSON.stringify(key);
    let e = this.map.get(k);
    if (!e) this.map.set(k, (e = { key, v: new Array<number>(this.width).fill(0) }));
    for (let i = 0; i < this.width; i++) e.v[i]! += sign * (v[i] ?? 0);
  }
  *entries(): Iterable<{ key: unknown[]; v: number[] }> {
    for (const e of this.map.values()) if (e.v.some((x) => x !== 0)) yield e;
  }
}

/** The maintainer's public face (see src/store/derived.ts). */
export interface MetricsMaintainer {
  onCallsInserted(calls: readonly { id: number; projectId: number }[]): void;
  /** Rebuilds projects whose calls were deleted; returns how many. */
  rebuildDirty(): number;
  /** Rebuilds every derived column and rollup from raw calls (bulk loads). */
  rebuildAll(): void;
}

export function createMetricsMaintainer(db: Database.Database): MetricsMaintainer {
  const byIdRange = db.prepare<[number, number], Row>(
    `SELECT ${COLS} FROM calls WHERE id BETWEEN ? AND ?`,
  );
  const byId = db.prepare<[number], Row>(`SELECT ${COLS} FROM calls WHERE id = ?`);
  const anchorOf = db.prepare<[number, string, string, number, number, number], Row>(
    `SELECT ${COLS} FROM calls INDEXED BY calls_by_session_tool
     WHERE project_id = ? AND session_id = ? AND tool_name = ? AND (started_ms < ? OR (started_ms = ? AND id < ?))
     ORDER BY started_ms DESC, id DESC LIMIT 1`,
  );
  const groupFrom = db.prepare<[number, string, string, number, number, number], Row>(
    `SELECT ${COLS} FROM calls INDEXED BY calls_by_session_tool
     WHERE project_id = ? AND session_id = ? AND tool_name = ? AND (started_ms > ? OR (started_ms = ? AND id >= ?))
     ORDER BY started_ms, id`,
  );
  const sessionPrev = db.prepare<[number, string, number, number, number], { tool_name: string }>(
    `SELECT tool_name FROM calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? AND (started_ms < ? OR (started_ms = ? AND id < ?))
     ORDER BY started_ms DESC, id DESC LIMIT 1`,
  );
  const sessionNext = db.prepare<[number, string, number, number, number], Row>(
    `SELECT ${COLS} FROM calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? AND (started_ms > ? OR (started_ms = ? AND id > ?))
     ORDER BY started_ms, id LIMIT 1`,
  );
  const chainPrefix = db.prepare(
    `UPDATE calls SET chain = 1
     WHERE project_id = @p AND session_id = @s AND tool_name = @t AND run_id = @run
       AND started_ms BETWEEN @fromMs AND @toMs
       AND NOT (started_ms = @fromMs AND id <= @fromId) AND NOT (started_ms = @toMs AND id >= @toId)`,
  );
  const updateFacts = db.prepare(
    `UPDATE calls SET link = @link, prev_link = @prev_link, fcs = @fcs, run_id = @run_id, chain = @chain,
            prev_tool = @prev_tool WHERE id = @id`,
  );
  const updateNew = db.prepare(
    `UPDATE calls SET link = @link, prev_link = @prev_link, fcs = @fcs, run_id = @run_id, chain = @chain,
            prev_tool = @prev_tool, size_bucket = @size_bucket WHERE id = @id`,
  );
  const upsertDaily = db.prepare(
    `INSERT INTO metrics_daily (project_id, day_ms, tool_name, client_name, oc, link, head,
                                calls, units, duration, l0, l1, l2, l3)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET calls = calls + excluded.calls, units = units + excluded.units,
       duration = duration + excluded.duration, l0 = l0 + excluded.l0, l1 = l1 + excluded.l1,
       l2 = l2 + excluded.l2, l3 = l3 + excluded.l3`,
  );
  const upsertSession = db.prepare(
    `INSERT INTO metrics_sessions (project_id, session_id, client_name, first_ms, last_ms, last_end_ms, calls,
       ok, empty, bad_args, tool_error, crashed, fcs, retries, repeats, unknown_links, chains, units, duration, slow)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET first_ms = min(first_ms, excluded.first_ms), last_ms = max(last_ms, excluded.last_ms),
       last_end_ms = max(last_end_ms, excluded.last_end_ms), calls = calls + excluded.calls, ok = ok + excluded.ok,
       empty = empty + excluded.empty, bad_args = bad_args + excluded.bad_args,
       tool_error = tool_error + excluded.tool_error, crashed = crashed + excluded.crashed, fcs = fcs + excluded.fcs,
       retries = retries + excluded.retries, repeats = repeats + excluded.repeats,
       unknown_links = unknown_links + excluded.unknown_links, chains = chains + excluded.chains,
       units = units + excluded.units, duration = duration + excluded.duration, slow = slow + excluded.slow`,
  );
  const upsertPair = db.prepare(
    `INSERT INTO metrics_pairs (project_id, day_ms, client_name, from_tool, to_tool, n) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET n = n + excluded.n`,
  );
  const upsertSize = db.prepare(
    `INSERT INTO metrics_sizes (project_id, day_ms, tool_name, client_name, bucket, n, units) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET n = n + excluded.n, units = units + excluded.units`,
  );
  const dirtyProjects = db.prepare<[], { project_id: number }>(
    'SELECT project_id FROM metrics_dirty',
  );

  function rebuildDirty(): number {
    const dirty = dirtyProjects.all();
    for (const { project_id } of dirty) db.exec(rebuildSql(project_id));
    return dirty.length;
  }

  function onCallsInserted(inserted: readonly { id: number; projectId: number }[]): void {
    if (inserted.length === 0) return;
    const rebuilt = new Set(dirtyProjects.all().map((d) => d.project_id));
    if (rebuilt.size > 0) rebuildDirty();
    const ids = new Set(inserted.filter((c) => !rebuilt.has(c.projectId)).map((c) => c.id));
    if (ids.size === 0) return;

    const touched = new Map<number, Touched>();
    const touch = (row: Row): Touched => {
      let t = touched.get(row.id);
      if (!t) touched.set(row.id, (t = { row, isNew: false, next: factsOf(row) }));
      return t;
    };
    let lo = Infinity;
    let hi = -Infinity;
    for (const id of ids) {
      lo = Math.min(lo, id);
      hi = Math.max(hi, id);
    }
    const fresh: Row[] = [];
    for (const row of byIdRange.iterate(lo, hi)) {
      if (!ids.has(row.id)) continue;
      fresh.push(row);
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
      const g = JSON.stringify([r.project_id, r.session_id, r.tool_name]);
      const s = JSON.stringify([r.project_id, r.session_id]);
      (groups.get(g) ?? groups.set(g, []).get(g)!).push(r);
      (sessions.get(s) ?? sessions.set(s, []).get(s)!).push(r);
    }

    // 1. Same-tool links, first-call success, runs and chains.
    for (const group of groups.values()) {
      const first = group[0]!;
      const last = group.at(-1)!;
      const { project_id: p, session_id: s, tool_name: t } = first;
      const anchor = anchorOf.get(p, s, t, first.started_ms, first.started_ms, first.id);
      let start: Row = first;
      let carried: { runId: number; chain: 0 | 1; anchor: Row } | null = null;
      if (anchor && first.started_ms - anchor.started_ms <= RETRY_WINDOW_MS) {
        if (anchor.link === LINK.none) {
          // The anchor ended its run: its run is unchanged up to it, so carry its facts.
          start = anchor;
          carried = { runId: anchor.run_id, chain: anchor.chain, anchor };
        } else {
          // A call landed inside a run: recompute that run from its first call.
          start = byId.get(anchor.run_id) ?? anchor;
        }
      }
      const seq: Touched[] = [];
      for (const row of groupFrom.iterate(p, s, t, start.started_ms, start.started_ms, start.id)) {
        const prev = seq.at(-1)?.row;
        if (prev && after(row, last) && row.started_ms - prev.started_ms > RETRY_WINDOW_MS) break;
        seq.push(touched.get(row.id) ?? touch(row));
      }
      // Note: breaking out of iterate() ends the statement, so it is reusable.
      let runStart = 0;
      const closeRun = (end: number): void => {
        const isFirst = runStart === 0;
        const runId = isFirst && carried ? carried.runId : seq[runStart]!.row.id;
        let chain: 0 | 1 = isFirst && carried ? carried.chain : 0;
        for (let j = runStart; j < end; j++) if (seq[j]!.next.link === LINK.retry) chain = 1;
        for (let j = runStart; j < end; j++) {
          seq[j]!.next.run_id = runId;
          seq[j]!.next.chain = chain;
        }
        if (isFirst && carried && chain !== carried.chain && carried.runId !== carried.anchor.id) {
          // The run before the anchor just became a retry chain.
          const headRow = touched.get(carried.runId)?.row ?? byId.get(carried.runId);
          const head = headRow ? touch(headRow) : undefined;
          if (head) head.next.chain = chain;
          const a = carried.anchor;
          const hr = head?.row ?? a;
          chainPrefix.run({
            p,
            s,
            t,
            run: carried.runId,
            fromMs: hr.started_ms,
            fromId: hr.id,
            toMs: a.started_ms,
            toId: a.id,
          });
          for (const x of touched.values()) {
            const r = x.row;
            if (
              r.project_id === p &&
              r.session_id === s &&
              r.tool_name === t &&
              x.next.run_id === carried.runId &&
              !after(r, a)
            ) {
              x.next.chain = chain;
            }
          }
        }
      };
      for (let i = 0; i < seq.length; i++) {
        const cur = seq[i]!;
        const nxt = seq[i + 1];
        cur.next.link = linkCode(cur.row, nxt?.row);
        cur.next.fcs = firstCallSuccess(cur.row, cur.next.link);
        if (i === 0) cur.next.prev_link = cur.isNew ? LINK.none : cur.row.prev_link;
        else cur.next.prev_link = seq[i - 1]!.next.link;
        if (i > 0 && cur.next.prev_link === LINK.none) {
          closeRun(i);
          runStart = i;
        }
      }
      closeRun(seq.length);
    }

    // 2. Session order across tools: each new call's predecessor, and its successor's.
    for (const list of sessions.values()) {
      for (const c of list) {
        const p = sessionPrev.get(c.project_id, c.session_id, c.started_ms, c.started_ms, c.id);
        touched.get(c.id)!.next.prev_tool = p?.tool_name ?? null;
        const n = sessionNext.get(c.project_id, c.session_id, c.started_ms, c.started_ms, c.id);
        if (n && !ids.has(n.id)) touch(n).next.prev_tool = c.tool_name;
      }
    }

    // 3. Write facts and move contributions.
    const daily = new Deltas(7);
    const sess = new Deltas(17);
    const pairs = new Deltas(1);
    const sizes = new Deltas(2);
    const contribute = (r: Row, f: DerivedFacts, sign: number): void => {
      const day = utcDay(r.started_ms);
      const oc = outcomeClass(r.outcome, r.is_empty);
      const head = f.chain === 1 && f.prev_link === LINK.none ? 1 : 0;
      const lat = [0, 0, 0, 0];
      lat[latencyBucketIndex(r.duration_ms)] = 1;
      daily.add(
        [r.project_id, day, r.tool_name, r.client_name, oc, f.link, head],
        [1, r.response_bytes, r.duration_ms, ...lat],
        sign,
      );
      // metrics_sessions dynamic part: fcs, retries, repeats, unknown, chains (indexes 9–13 below).
      const v = new Array<number>(17).fill(0);
      v[9] = f.fcs;
      v[10] = f.link === LINK.retry ? 1 : 0;
      v[11] = f.link === LINK.repeat ? 1 : 0;
      v[12] = f.link === LINK.unknown ? 1 : 0;
      v[13] = head;
      sess.add([r.project_id, r.session_id, r.client_name], v, sign);
      if (f.prev_tool !== null && f.prev_tool !== r.tool_name) {
        pairs.add([r.project_id, day, r.client_name, f.prev_tool, r.tool_name], [1], sign);
      }
    };
    const firstLast = new Map<string, [number, number, number]>();
    for (const t of touched.values()) {
      const r = t.row;
      if (t.isNew) {
        updateNew.run({ id: r.id, ...t.next, size_bucket: sizeBucket(r.response_bytes) });
        contribute(r, t.next, 1);
        const oc = outcomeClass(r.outcome, r.is_empty);
        const v = new Array<number>(17).fill(0);
        v[0] = 1; // calls
        v[1 + oc] = 1; // ok, empty, bad_args, tool_error, crashed → 1..5
        v[14] = r.response_bytes;
        v[15] = r.duration_ms;
        v[16] = r.duration_ms >= SLOW_CALL_MS ? 1 : 0;
        const key = [r.project_id, r.session_id, r.client_name];
        sess.add(key, v, 1);
        const k = JSON.stringify(key);
        const fl = firstLast.get(k);
        const end = r.started_ms + r.duration_ms;
        if (!fl) firstLast.set(k, [r.started_ms, r.started_ms, end]);
        else
          firstLast.set(k, [
            Math.min(fl[0], r.started_ms),
            Math.max(fl[1], r.started_ms),
            Math.max(fl[2], end),
          ]);
        sizes.add(
          [
            r.project_id,
            utcDay(r.started_ms),
            r.tool_name,
            r.client_name,
            sizeBucket(r.response_bytes),
          ],
          [1, r.response_bytes],
          1,
        );
      } else if (!sameFacts(factsOf(r), t.next)) {
        updateFacts.run({ id: r.id, ...t.next });
        contribute(r, factsOf(r), -1);
        contribute(r, t.next, 1);
      }
    }
    for (const { key, v } of daily.entries()) upsertDaily.run(...key, ...v);
    for (const { key, v } of sess.entries()) {
      const fl = firstLast.get(JSON.stringify(key));
      // A dynamic-only change leaves first/last alone: min/max with the extremes never moves them.
      const [first, last, end] = fl ?? [
        Number.MAX_SAFE_INTEGER,
        Number.MIN_SAFE_INTEGER,
        Number.MIN_SAFE_INTEGER,
      ];
      upsertSession.run(
        ...key,
        first,
        last,
        end,
        ...v.slice(0, 1),
        ...v.slice(1, 6),
        ...v.slice(9, 14),
        ...v.slice(14, 17),
      );
    }
    for (const { key, v } of pairs.entries()) upsertPair.run(...key, ...v);
    for (const { key, v } of sizes.entries()) upsertSize.run(...key, ...v);
  }

  return {
    onCallsInserted,
    rebuildDirty,
    rebuildAll: () => db.exec(rebuildSql()),
  };
}
