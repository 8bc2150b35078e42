/**
 * Writes changed facts and moves each changed call's contribution in every rollup from its
 * old key to its new one (new calls add their whole contribution), one upsert per key.
 */
import { outcomeClass } from '../../../metrics/aggregate.js';
import { SLOW_CALL_MS } from '../../../shared/metric-constants.js';
import { fineBucket, latencyBucketIndex } from '../../../metrics/latency.js';
import { LINK, type DerivedFacts } from '../../../metrics/links.js';
import { sizeBucket } from '../../../metrics/sizes.js';
import { utcDay, utcHour } from '../../../metrics/time.js';
import { ALL_TIME } from '../sql.js';
import { factsOf, sameFacts, type Row, type Touched } from './rows.js';
import { Deltas, KeyIds } from './deltas.js';
import type { MaintainStatements } from './statements.js';

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
    upsertHourStats,
    upsertLatencyDays,
    upsertLatencyHours,
    upsertDurationDays,
    upsertDurationHours,
    upsertSessionHours,
  } = st;
  const ids = new KeyIds();
  const daily = new Deltas(7);
  const sess = new Deltas(17);
  const pairs = new Deltas(1);
  const sizes = new Deltas(2);
  const latency = new Deltas(1);
  const durations = new Deltas(1);
  const hourly = new Deltas(2);
  const hourStats = new Deltas(7);
  const latencyDays = new Deltas(2);
  const latencyHours = new Deltas(2);
  const durationDays = new Deltas(1);
  const durationHours = new Deltas(1);
  const sessionHours = new Deltas(1);
  /** First start, last start and last end per session (`sessionId`), for new calls. */
  const firstLast = new Map<number, [number, number, number]>();
  // Keys are two numbers (./deltas.ts): `a` names the texts — (project, tool, client) and the
  // like — and `b` packs the small fields under the day or hour: `d * 64 + oc * 8 + …` never
  // collides, as every field below it is < 64 (< 32 under an hour) and days are integers.
  const toolClientOf = (r: Row): number =>
    ids.pair(ids.pair(r.project_id, ids.text(r.tool_name)), ids.text(r.client_name));
  const sessionId = (r: Row): number =>
    ids.pair(ids.pair(r.project_id, ids.text(r.session_id)), ids.text(r.client_name));
  const sessionAt = (r: Row, a: number): number[] =>
    sess.at(a, 0, () => [r.project_id, r.session_id, r.client_name]);
  /** One day's (or all time's) share of a call's facts-dependent contribution. */
  const addDaily = (
    r: Row,
    tc: number,
    d: number,
    oc: number,
    f: DerivedFacts,
    head: number,
    lat: number,
    pair: string | null,
    sign: number,
  ): void => {
    const { project_id: p, tool_name: tool, client_name: client } = r;
    const v = daily.at(tc, d * 64 + oc * 8 + f.link * 2 + head, () => [
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
      const a = ids.pair(ids.pair(ids.pair(p, ids.text(client)), ids.text(pair)), ids.text(tool));
      pairs.at(a, d, () => [p, d, client, pair, tool])[0]! += sign;
    }
  };
  /** The parts of a call's contribution that depend on its derived facts. */
  const contribute = (r: Row, f: DerivedFacts, sign: number): void => {
    const tc = toolClientOf(r);
    const oc = outcomeClass(r.outcome, r.is_empty);
    const head = f.chain === 1 && f.prev_link === LINK.none ? 1 : 0;
    const lat = 3 + latencyBucketIndex(r.duration_ms);
    const pair = f.prev_tool !== null && f.prev_tool !== r.tool_name ? f.prev_tool : null;
    addDaily(r, tc, utcDay(r.started_ms), oc, f, head, lat, pair, sign);
    addDaily(r, tc, ALL_TIME, oc, f, head, lat, pair, sign);
    const p = r.project_id;
    const hour = utcHour(r.started_ms);
    const hs = hourStats.at(tc, hour * 64 + oc * 8 + f.link * 2 + head, () => [
      p,
      hour,
      r.tool_name,
      r.client_name,
      oc,
      f.link,
      head,
    ]);
    hs[0]! += sign;
    hs[1]! += sign * r.response_bytes;
    hs[2]! += sign * r.duration_ms;
    hs[lat]! += sign;
    const h = hourly.at(p, hour * 32 + oc * 4 + f.link, () => [p, hour, oc, f.link]);
    h[0]! += sign;
    h[1]! += sign * r.response_bytes;
    // metrics_sessions, dynamic part: fcs, retries, repeats, unknown links, chains (9–13).
    const v = sessionAt(r, sessionId(r));
    v[9]! += sign * f.fcs;
    if (f.link === LINK.retry) v[10]! += sign;
    else if (f.link === LINK.repeat) v[11]! += sign;
    else if (f.link === LINK.unknown) v[12]! += sign;
    v[13]! += sign * head;
  };
  /** One day's (or all time's) share of a call's size. */
  const addSize = (r: Row, tc: number, d: number, sb: number): void => {
    const z = sizes.at(tc, d * 64 + sb, () => [r.project_id, d, r.tool_name, r.client_name, sb]);
    z[0]! += 1;
    z[1]! += r.response_bytes;
  };
  /** One call in a latency row: its count and its duration. */
  const addLatency = (v: number[], ms: number): void => {
    v[0]! += 1;
    v[1]! += ms;
  };
  /** The parts that never change after insert. */
  const contributeStatic = (r: Row): void => {
    const { project_id: p, tool_name: tool, duration_ms: ms } = r;
    const sk = sessionId(r);
    const v = sessionAt(r, sk);
    v[0]! += 1; // calls
    v[1 + outcomeClass(r.outcome, r.is_empty)]! += 1; // ok, empty, bad_args, tool_error, crashed
    v[14]! += r.response_bytes;
    v[15]! += ms;
    if (ms >= SLOW_CALL_MS) v[16]! += 1;
    const fl = firstLast.get(sk);
    const end = r.started_ms + ms;
    if (fl) {
      if (r.started_ms < fl[0]) fl[0] = r.started_ms;
      if (r.started_ms > fl[1]) fl[1] = r.started_ms;
      if (end > fl[2]) fl[2] = end;
    } else firstLast.set(sk, [r.started_ms, r.started_ms, end]);
    const tc = toolClientOf(r);
    const sb = sizeBucket(r.response_bytes);
    addSize(r, tc, utcDay(r.started_ms), sb);
    addSize(r, tc, ALL_TIME, sb);
    const fb = fineBucket(ms);
    const toolKey = ids.pair(p, ids.text(tool));
    const allKey = ids.pair(p, -1);
    durations.at(p, ms, () => [p, ms])[0]! += 1;
    latency.at(toolKey, fb, () => [p, tool, fb])[0]! += 1;
    latency.at(allKey, fb, () => [p, '', fb])[0]! += 1;
    // By day per tool (a range's percentiles are read tool by tool), by hour per tool and for
    // all tools (the time series' p95): `b` packs the time over the fine bucket (< 1024), `a`
    // the project and tool.
    const day = utcDay(r.started_ms);
    const hour = utcHour(r.started_ms);
    addLatency(
      latencyDays.at(toolKey, day * 1024 + fb, () => [p, tool, day, fb]),
      ms,
    );
    addLatency(
      latencyHours.at(toolKey, hour * 1024 + fb, () => [p, tool, hour, fb]),
      ms,
    );
    addLatency(
      latencyHours.at(allKey, hour * 1024 + fb, () => [p, '', hour, fb]),
      ms,
    );
    // Exact durations per tool, by day and by hour: `a` names the tool and the time.
    durationDays.at(ids.pair(toolKey, day), ms, () => [p, tool, day, ms])[0]! += 1;
    durationHours.at(ids.pair(toolKey, hour), ms, () => [p, tool, hour, ms])[0]! += 1;
    sessionHours.at(sk, hour, () => [p, hour, r.session_id, r.client_name])[0]! += 1;
  };
  // Rows are written in id order, not in the session order they were touched in: new calls
  // then go to the end of the table one after another, where inserting them interleaved
  // split its last pages in the middle (callgrind: 3% of SQLite's instructions per applied
  // call, a quarter of those spent rebalancing pages; docs/benchmarks.md).
  const writes: Touched[] = [];
  for (const t of touched.values()) {
    const r = t.row;
    if (t.isNew) {
      writes.push(t);
      contribute(r, t.next, 1);
      contributeStatic(r);
    } else if (!sameFacts(factsOf(r), t.next)) {
      writes.push(t);
      contribute(r, factsOf(r), -1);
      contribute(r, t.next, 1);
    }
  }
  writes.sort((a, b) => a.row.id - b.row.id);
  for (const { row: r, isNew, next } of writes) {
    const size_bucket = sizeBucket(r.response_bytes);
    if (!isNew) updateFacts.run({ id: r.id, ...next });
    else if (writeNew) writeNew(r, next, size_bucket);
    else updateNew.run({ id: r.id, ...next, size_bucket });
  }
  for (const { key, v } of daily.entries()) upsertDaily.run(...key, ...v);
  const none = [Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
  for (const { key, v } of sess.entries()) {
    // A facts-only change leaves first/last alone: min/max with the extremes never moves them.
    const [p, session, client] = key as [number, string, string];
    const fl = firstLast.get(ids.pair(ids.pair(p, ids.text(session)), ids.text(client))) ?? none;
    upsertSession.run(...key, ...fl, v[0], ...v.slice(1, 6), ...v.slice(9, 17));
  }
  for (const { key, v } of pairs.entries()) upsertPair.run(...key, ...v);
  for (const { key, v } of sizes.entries()) upsertSize.run(...key, ...v);
  for (const { key, v } of latency.entries()) upsertLatency.run(...key, ...v);
  for (const { key, v } of durations.entries()) upsertDuration.run(...key, ...v);
  for (const { key, v } of hourly.entries()) upsertHourly.run(...key, ...v);
  for (const { key, v } of hourStats.entries()) upsertHourStats.run(...key, ...v);
  for (const { key, v } of latencyDays.entries()) upsertLatencyDays.run(...key, ...v);
  for (const { key, v } of latencyHours.entries()) upsertLatencyHours.run(...key, ...v);
  for (const { key, v } of durationDays.entries()) upsertDurationDays.run(...key, ...v);
  for (const { key, v } of durationHours.entries()) upsertDurationHours.run(...key, ...v);
  for (const { key, v } of sessionHours.entries()) upsertSessionHours.run(...key, ...v);
}
