/**
 * Writes changed facts and moves each changed call's contribution in every rollup from its
 * old key to its new one (new calls add their whole contribution), one upsert per key.
 */
import { outcomeClass } from '../../../metrics/aggregate.js';
import { SLOW_CALL_MS } from '../../../shared/metric-constants.js';
import { fineBucket, latencyBucketIndex, octave } from '../../../metrics/latency.js';
import { LINK, type DerivedFacts } from '../../../metrics/links.js';
import { sizeBucket } from '../../../metrics/sizes.js';
import { utcDay, utcHour } from '../../../metrics/time.js';
import { ALL_TIME } from '../sql.js';
import { factsOf, sameFacts, type Row, type Touched } from './rows.js';
import type { MaintainStatements } from './statements.js';

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

/** Writes the facts of every touched call and applies their rollup deltas. */
export function writeFactsAndRollups(st: MaintainStatements, touched: Map<number, Touched>): void {
  const {
    updateNew,
    updateFacts,
    upsertDaily,
    upsertSession,
    upsertPair,
    upsertSize,
    upsertLatency,
    upsertDuration,
    upsertHourly,
    upsertLatencyHourly,
  } = st;
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
