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

/**
 * Accumulates signed deltas per key, flushed as one upsert each. Keys are strings built by
 * the caller (a template literal: far cheaper per call than serialising an array); the key's
 * column values are kept from the first add.
 */
/** Free-text key parts joined so no two different tuples give one key (lengths first). */
const texts = (...parts: string[]): string =>
  `${parts.map((x) => x.length).join(',')}|${parts.join('')}`;

class Deltas {
  private readonly map = new Map<string, { key: unknown[]; v: number[] }>();
  constructor(private readonly width: number) {}
  /** The running values of `k`, created (zeros) with its columns `key()` on first use. */
  at(k: string, key: () => unknown[]): number[] {
    let e = this.map.get(k);
    if (!e) this.map.set(k, (e = { key: key(), v: new Array<number>(this.width).fill(0) }));
    return e.v;
  }
  *entries(): Iterable<{ key: unknown[]; v: number[] }> {
    for (const e of this.map.values()) if (e.v.some((x) => x !== 0)) yield e;
  }
}

const sessionKey = (p: number, session: string, client: string): string =>
  `${p}|${texts(session, client)}`;

/** Stores a new call's facts: an update of the row already inserted, or the row's insert. */
export type WriteNew = (row: Row, facts: DerivedFacts, sizeBucket: number) => void;

/**
 * Writes the facts of every touched call and applies their rollup deltas. New calls' facts
 * go through `writeNew` (by default an update of the row, inserted raw before).
 */
export function writeFactsAndRollups(
  st: MaintainStatements,
  touched: Map<number, Touched>,
  writeNew?: WriteNew,
): void {
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
    const { project_id: p, tool_name: tool, client_name: client } = r;
    const day = utcDay(r.started_ms);
    const oc = outcomeClass(r.outcome, r.is_empty);
    const head = f.chain === 1 && f.prev_link === LINK.none ? 1 : 0;
    const lat = 3 + latencyBucketIndex(r.duration_ms);
    const pair = f.prev_tool !== null && f.prev_tool !== tool ? f.prev_tool : null;
    for (const d of [day, ALL_TIME]) {
      const v = daily.at(`${p}|${d}|${oc}|${f.link}|${head}|${texts(tool, client)}`, () => [
        p,
        d,
        tool,
        client,
        oc,
        f.link,
        head,
      ]);
      v[0]! += sign;
      v[1]! += sign * r.response_bytes;
      v[2]! += sign * r.duration_ms;
      v[lat]! += sign;
      if (pair !== null) {
        pairs.at(`${p}|${d}|${texts(client, pair, tool)}`, () => [p, d, client, pair, tool])[0]! +=
          sign;
      }
    }
    const hour = utcHour(r.started_ms);
    const h = hourly.at(`${p}|${hour}|${oc}|${f.link}`, () => [p, hour, oc, f.link]);
    h[0]! += sign;
    h[1]! += sign * r.response_bytes;
    // metrics_sessions, dynamic part: fcs, retries, repeats, unknown links, chains (9–13).
    const v = sessionAt(r);
    v[9]! += sign * f.fcs;
    if (f.link === LINK.retry) v[10]! += sign;
    else if (f.link === LINK.repeat) v[11]! += sign;
    else if (f.link === LINK.unknown) v[12]! += sign;
    v[13]! += sign * head;
  };
  const sessionAt = (r: Row): number[] =>
    sess.at(sessionKey(r.project_id, r.session_id, r.client_name), () => [
      r.project_id,
      r.session_id,
      r.client_name,
    ]);
  /** The parts that never change after insert. */
  const contributeStatic = (r: Row): void => {
    const { project_id: p, tool_name: tool, client_name: client, duration_ms: ms } = r;
    const day = utcDay(r.started_ms);
    const v = sessionAt(r);
    v[0]! += 1; // calls
    v[1 + outcomeClass(r.outcome, r.is_empty)]! += 1; // ok, empty, bad_args, tool_error, crashed
    v[14]! += r.response_bytes;
    v[15]! += ms;
    if (ms >= SLOW_CALL_MS) v[16]! += 1;
    const k = sessionKey(p, r.session_id, client);
    const fl = firstLast.get(k);
    const end = r.started_ms + ms;
    if (fl) {
      if (r.started_ms < fl[0]) fl[0] = r.started_ms;
      if (r.started_ms > fl[1]) fl[1] = r.started_ms;
      if (end > fl[2]) fl[2] = end;
    } else firstLast.set(k, [r.started_ms, r.started_ms, end]);
    const sb = sizeBucket(r.response_bytes);
    const fb = fineBucket(ms);
    for (const d of [day, ALL_TIME]) {
      const z = sizes.at(`${p}|${d}|${sb}|${texts(tool, client)}`, () => [p, d, tool, client, sb]);
      z[0]! += 1;
      z[1]! += r.response_bytes;
    }
    durations.at(`${p}|${ms}`, () => [p, ms])[0]! += 1;
    latency.at(`${p}|${fb}|${tool}`, () => [p, tool, fb])[0]! += 1;
    latency.at(`${p}|${fb}|`, () => [p, '', fb])[0]! += 1;
    const hour = utcHour(r.started_ms);
    const o = octave(ms);
    latencyHourly.at(`${p}|${hour}|${o}`, () => [p, hour, o])[0]! += 1;
  };
  for (const t of touched.values()) {
    const r = t.row;
    if (t.isNew) {
      if (writeNew) writeNew(r, t.next, sizeBucket(r.response_bytes));
      else updateNew.run({ id: r.id, ...t.next, size_bucket: sizeBucket(r.response_bytes) });
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
    const fl =
      firstLast.get(sessionKey(key[0] as number, key[1] as string, key[2] as string)) ?? none;
    upsertSession.run(...key, ...fl, v[0], ...v.slice(1, 6), ...v.slice(9, 17));
  }
  for (const { key, v } of pairs.entries()) upsertPair.run(...key, ...v);
  for (const { key, v } of sizes.entries()) upsertSize.run(...key, ...v);
  for (const { key, v } of latency.entries()) upsertLatency.run(...key, ...v);
  for (const { key, v } of durations.entries()) upsertDuration.run(...key, ...v);
  for (const { key, v } of hourly.entries()) upsertHourly.run(...key, ...v);
  for (const { key, v } of latencyHourly.entries()) upsertLatencyHourly.run(...key, ...v);
}
