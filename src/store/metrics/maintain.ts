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
import { fineBucket, latencyBucketIndex, octave } from '../../metrics/latency.js';
import {
  firstCallSuccess,
  LINK,
  linkCode,
  type DerivedFacts,
  type LinkCode,
} from '../../metrics/links.js';
import { sizeBucket } from '../../metrics/sizes.js';
import { utcDay, utcHour } from '../../metrics/time.js';
import { ALL_TIME, rebuildSql } from './sql.js';

// Neighbour lookups are written `started_ms <= ? AND (started_ms < ? OR id < ?)` rather than
// `(started_ms < ? OR (started_ms = ? AND id < ?))`: same meaning, but SQLite can only turn the
// first into an index range, so a lookup costs the same in a session of ten calls or ten
// thousand (docs/benchmarks.md, "Where the time goes").

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

interface ChainStats {
  calls: number;
  retries: number;
  repeats: number;
  unknown_links: number;
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
  add(key: unknown[], v: readonly number[], sign: number): void {
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
     WHERE project_id = ? AND session_id = ? AND tool_name = ?
       AND started_ms <= ? AND (started_ms < ? OR id < ?)
     ORDER BY started_ms DESC, id DESC LIMIT 1`,
  );
  const groupFrom = db.prepare<[number, string, string, number, number, number], Row>(
    `SELECT ${COLS} FROM calls INDEXED BY calls_by_session_tool
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
     FROM calls INDEXED BY calls_by_session_tool
     WHERE project_id = @p AND session_id = @s AND tool_name = @t AND run_id = @run
       AND started_ms BETWEEN @fromMs AND @toMs AND NOT (started_ms = @toMs AND id >= @toId)`,
  );
  const chainRow = db.prepare<[number], ChainStats & { client_name: string; first_ms: number }>(
    `SELECT calls, retries, repeats, unknown_links, client_name, first_ms
     FROM metrics_chains WHERE run_id = ?`,
  );
  const putChain = db.prepare(
    `INSERT OR REPLACE INTO metrics_chains (run_id, project_id, session_id, tool_name, client_name,
       first_ms, last_ms, last_end_ms, calls, retries, repeats, unknown_links, resolved, tail_id)
     VALUES (@run_id, @project_id, @session_id, @tool_name, @client_name, @first_ms, @last_ms,
       @last_end_ms, @calls, @retries, @repeats, @unknown_links, @resolved, @tail_id)`,
  );
  const dropChain = db.prepare('DELETE FROM metrics_chains WHERE run_id = ?');
  const updateFacts = db.prepare(
    `UPDATE calls SET link = @link, prev_link = @prev_link, fcs = @fcs, run_id = @run_id,
       chain = @chain, prev_tool = @prev_tool WHERE id = @id`,
  );
  const updateNew = db.prepare(
    `UPDATE calls SET link = @link, prev_link = @prev_link, fcs = @fcs, run_id = @run_id,
       chain = @chain, prev_tool = @prev_tool, size_bucket = @size_bucket WHERE id = @id`,
  );
  const upsertDaily = db.prepare(
    `INSERT INTO metrics_daily (project_id, day_ms, tool_name, client_name, oc, link, head,
       calls, units, duration, l0, l1, l2, l3) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET calls = calls + excluded.calls, units = units + excluded.units,
       duration = duration + excluded.duration, l0 = l0 + excluded.l0, l1 = l1 + excluded.l1,
       l2 = l2 + excluded.l2, l3 = l3 + excluded.l3`,
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
  const upsertPair = db.prepare(
    `INSERT INTO metrics_pairs (project_id, day_ms, client_name, from_tool, to_tool, n)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n`,
  );
  const upsertSize = db.prepare(
    `INSERT INTO metrics_sizes (project_id, day_ms, tool_name, client_name, bucket, n, units)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET n = n + excluded.n, units = units + excluded.units`,
  );
  const upsertLatency = db.prepare(
    `INSERT INTO metrics_latency (project_id, tool_name, bucket, n) VALUES (?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET n = n + excluded.n`,
  );
  const upsertDuration = db.prepare(
    `INSERT INTO metrics_durations (project_id, duration_ms, n) VALUES (?, ?, ?)
     ON CONFLICT DO UPDATE SET n = n + excluded.n`,
  );
  const upsertHourly = db.prepare(
    `INSERT INTO metrics_hourly (project_id, hour_ms, oc, link, calls, units) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET calls = calls + excluded.calls, units = units + excluded.units`,
  );
  const upsertLatencyHourly = db.prepare(
    `INSERT INTO metrics_latency_hourly (project_id, hour_ms, bucket, n) VALUES (?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET n = n + excluded.n`,
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

    // 1. Same-tool links, first-call success, runs, chains.
    for (const group of groups.values()) recomputeGroup(group, touched, touch);

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
    const daily = new Deltas(7);
    const sess = new Deltas(17);
    const pairs = new Deltas(1);
    const sizes = new Deltas(2);
    const latency = new Deltas(1);
    const durations = new Deltas(1);
    const hourly = new Deltas(2);
    const latencyHourly = new Deltas(1);
    const firstLast = new Map<string, [number, number, number]>();
    /** The parts of a call's contribution that depend on its derived facts. */
    const contribute = (r: Row, f: DerivedFacts, sign: number): void => {
      const day = utcDay(r.started_ms);
      const oc = outcomeClass(r.outcome, r.is_empty);
      const head = f.chain === 1 && f.prev_link === LINK.none ? 1 : 0;
      const lat = [0, 0, 0, 0];
      lat[latencyBucketIndex(r.duration_ms)] = 1;
      for (const d of [day, ALL_TIME]) {
        daily.add(
          [r.project_id, d, r.tool_name, r.client_name, oc, f.link, head],
          [1, r.response_bytes, r.duration_ms, ...lat],
          sign,
        );
        if (f.prev_tool !== null && f.prev_tool !== r.tool_name) {
          pairs.add([r.project_id, d, r.client_name, f.prev_tool, r.tool_name], [1], sign);
        }
      }
      hourly.add([r.project_id, utcHour(r.started_ms), oc, f.link], [1, r.response_bytes], sign);
      // metrics_sessions, dynamic part: fcs, retries, repeats, unknown links, chains (9–13).
      const v = new Array<number>(17).fill(0);
      v[9] = f.fcs;
      v[10] = f.link === LINK.retry ? 1 : 0;
      v[11] = f.link === LINK.repeat ? 1 : 0;
      v[12] = f.link === LINK.unknown ? 1 : 0;
      v[13] = head;
      sess.add([r.project_id, r.session_id, r.client_name], v, sign);
    };
    /** The parts that never change after insert. */
    const contributeStatic = (r: Row): void => {
      const day = utcDay(r.started_ms);
      const v = new Array<number>(17).fill(0);
      v[0] = 1; // calls
      v[1 + outcomeClass(r.outcome, r.is_empty)] = 1; // ok, empty, bad_args, tool_error, crashed
      v[14] = r.response_bytes;
      v[15] = r.duration_ms;
      v[16] = r.duration_ms >= SLOW_CALL_MS ? 1 : 0;
      const key = [r.project_id, r.session_id, r.client_name];
      sess.add(key, v, 1);
      const k = JSON.stringify(key);
      const fl = firstLast.get(k);
      const end = r.started_ms + r.duration_ms;
      firstLast.set(
        k,
        fl
          ? [Math.min(fl[0], r.started_ms), Math.max(fl[1], r.started_ms), Math.max(fl[2], end)]
          : [r.started_ms, r.started_ms, end],
      );
      const sb = sizeBucket(r.response_bytes);
      const fb = fineBucket(r.duration_ms);
      for (const d of [day, ALL_TIME]) {
        sizes.add([r.project_id, d, r.tool_name, r.client_name, sb], [1, r.response_bytes], 1);
      }
      durations.add([r.project_id, r.duration_ms], [1], 1);
      latency.add([r.project_id, r.tool_name, fb], [1], 1);
      latency.add([r.project_id, '', fb], [1], 1);
      latencyHourly.add([r.project_id, utcHour(r.started_ms), octave(r.duration_ms)], [1], 1);
    };
    for (const t of touched.values()) {
      const r = t.row;
      if (t.isNew) {
        updateNew.run({ id: r.id, ...t.next, size_bucket: sizeBucket(r.response_bytes) });
        contribute(r, t.next, 1);
        contributeStatic(r);
      } else if (!sameFacts(factsOf(r), t.next)) {
        updateFacts.run({ id: r.id, ...t.next });
        contribute(r, factsOf(r), -1);
        contribute(r, t.next, 1);
      }
    }
    for (const { key, v } of daily.entries()) upsertDaily.run(...key, ...v);
    const none = [Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    for (const { key, v } of sess.entries()) {
      // A facts-only change leaves first/last alone: min/max with the extremes never moves them.
      const fl = firstLast.get(JSON.stringify(key)) ?? none;
      upsertSession.run(...key, ...fl, v[0], ...v.slice(1, 6), ...v.slice(9, 17));
    }
    for (const { key, v } of pairs.entries()) upsertPair.run(...key, ...v);
    for (const { key, v } of sizes.entries()) upsertSize.run(...key, ...v);
    for (const { key, v } of latency.entries()) upsertLatency.run(...key, ...v);
    for (const { key, v } of durations.entries()) upsertDuration.run(...key, ...v);
    for (const { key, v } of hourly.entries()) upsertHourly.run(...key, ...v);
    for (const { key, v } of latencyHourly.entries()) upsertLatencyHourly.run(...key, ...v);
  }

  /** Recomputes links, runs and chains around the new calls of one (project, session, tool). */
  function recomputeGroup(
    group: readonly Row[],
    touched: Map<number, Touched>,
    touch: (row: Row) => Touched,
  ): void {
    const first = group[0]!;
    const last = group.at(-1)!;
    const { project_id: p, session_id: s, tool_name: t } = first;
    const anchor = anchorOf.get(p, s, t, first.started_ms, first.started_ms, first.id);
    let start: Row = first;
    let carried: { runId: number; chain: 0 | 1; anchor: Row } | null = null;
    if (anchor && first.started_ms - anchor.started_ms <= RETRY_WINDOW_MS) {
      if (anchor.link === LINK.none) {
        // The anchor ended its run: the run is unchanged up to it, so carry its facts.
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
      // Past the last new call, the first gap over 30 s ends everything that can change.
      if (prev && after(row, last) && row.started_ms - prev.started_ms > RETRY_WINDOW_MS) break;
      seq.push(touched.get(row.id) ?? touch(row));
    }
    const oldChains = new Set<number>();
    for (const x of seq) if (!x.isNew && x.row.chain === 1) oldChains.add(x.row.run_id);

    // Links and first-call success; runs split where a link is none.
    const runs: [number, number][] = [];
    let runStart = 0;
    for (let i = 0; i < seq.length; i++) {
      const cur = seq[i]!;
      cur.next.link = linkCode(cur.row, seq[i + 1]?.row);
      cur.next.fcs = firstCallSuccess(cur.row, cur.next.link);
      cur.next.prev_link =
        i === 0 ? (cur.isNew ? LINK.none : cur.row.prev_link) : seq[i - 1]!.next.link;
      if (i > 0 && cur.next.prev_link === LINK.none) {
        runs.push([runStart, i]);
        runStart = i;
      }
    }
    runs.push([runStart, seq.length]);

    const kept = new Set<number>();
    for (const [a, b] of runs) {
      const carry = a === 0 && carried ? carried : null;
      const runId = carry ? carry.runId : seq[a]!.row.id;
      let chain: 0 | 1 = carry ? carry.chain : 0;
      for (let j = a; j < b; j++) if (seq[j]!.next.link === LINK.retry) chain = 1;
      for (let j = a; j < b; j++) {
        seq[j]!.next.run_id = runId;
        seq[j]!.next.chain = chain;
      }
      if (!chain) continue;
      kept.add(runId);

      // The chain row; members before the anchor are not loaded, so take them from the old
      // row (the run already was a chain) or count them (it just became one).
      const st: ChainStats = { calls: 0, retries: 0, repeats: 0, unknown_links: 0 };
      let client = seq[a]!.row.client_name;
      let firstMs = seq[a]!.row.started_ms;
      if (carry && carry.runId !== carry.anchor.id) {
        const prior = carry.chain ? chainRow.get(carry.runId) : undefined;
        const headRow = touched.get(carry.runId)?.row ?? byId.get(carry.runId)!;
        if (prior) {
          st.calls = prior.calls - 1;
          st.retries = prior.retries;
          st.repeats = prior.repeats;
          st.unknown_links = prior.unknown_links;
        } else {
          const a0 = carry.anchor;
          const range = { p, s, t, run: carry.runId, fromMs: headRow.started_ms };
          Object.assign(st, chainPrefixStats.get({ ...range, toMs: a0.started_ms, toId: a0.id }));
          // The run before the anchor just became a retry chain: mark its members.
          chainPrefix.run({
            ...range,
            fromId: headRow.id,
            toMs: a0.started_ms,
            toId: a0.id,
          });
          touch(headRow).next.chain = 1;
          for (const x of touched.values()) {
            const r = x.row;
            if (r.project_id === p && r.session_id === s && r.tool_name === t) {
              if (x.next.run_id === carry.runId && !after(r, a0)) x.next.chain = 1;
            }
          }
        }
        client = headRow.client_name;
        firstMs = headRow.started_ms;
      }
      for (let j = a; j < b; j++) {
        const l = seq[j]!.next.link;
        st.calls++;
        if (l === LINK.retry) st.retries++;
        else if (l === LINK.repeat) st.repeats++;
        else if (l === LINK.unknown) st.unknown_links++;
      }
      const tail = seq[b - 1]!.row;
      putChain.run({
        run_id: runId,
        project_id: p,
        session_id: s,
        tool_name: t,
        client_name: client,
        first_ms: firstMs,
        last_ms: tail.started_ms,
        last_end_ms: tail.started_ms + tail.duration_ms,
        ...st,
        resolved: tail.outcome === 'ok' && !tail.is_empty ? 1 : 0,
        tail_id: tail.id,
      });
    }
    for (const id of oldChains) if (!kept.has(id)) dropChain.run(id);
  }

  return {
    onCallsInserted,
    rebuildDirty,
    rebuildAll: () => db.exec(rebuildSql()),
  };
}
