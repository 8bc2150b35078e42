/**
 * A call's contribution to every rollup, accumulated per key in memory: what storing a call
 * adds (sign +1) and what forgetting it takes away (sign −1), computed by the same code so
 * the two can never disagree with each other — or with `rebuildSql`, which the property
 * tests compare both against.
 *
 * Keys are two numbers (./deltas.ts): `a` names the texts — (project, tool, client) and the
 * like — and `b` packs the small fields under the day or hour: `d * 64 + oc * 8 + …` never
 * collides, as every field below it is < 64 (< 32 under an hour) and days are integers.
 */
import { outcomeClass } from '../../../metrics/aggregate.js';
import { fineBucket, latencyBucketIndex } from '../../../metrics/latency.js';
import { LINK, type DerivedFacts } from '../../../metrics/links.js';
import { utcDay, utcHour } from '../../../metrics/time.js';
import { SLOW_CALL_MS } from '../../../shared/metric-constants.js';
import { ALL_TIME } from '../sql.js';
import { Deltas, KeyIds } from './deltas.js';
import type { Row } from './rows.js';

/** What a call's contribution is computed from, besides its derived facts. */
export type RollupRow = Pick<
  Row,
  | 'project_id'
  | 'session_id'
  | 'client_name'
  | 'tool_name'
  | 'started_ms'
  | 'duration_ms'
  | 'outcome'
  | 'response_bytes'
  | 'is_empty'
>;

/**
 * The accumulators of one slice (or one forget step), table by table. Each entry's key holds
 * the rollup's key columns in the table's declared order, its values the summed columns.
 */
export class RollupDeltas {
  readonly daily = new Deltas(7);
  /** `metrics_sessions`: calls, the five outcome classes, 3 unused, the dynamic 9–13, 14–16. */
  readonly sessions = new Deltas(17);
  readonly pairs = new Deltas(1);
  readonly sizes = new Deltas(2);
  readonly latency = new Deltas(1);
  readonly durations = new Deltas(1);
  readonly hourly = new Deltas(2);
  readonly hourStats = new Deltas(7);
  readonly latencyDays = new Deltas(2);
  readonly latencyHours = new Deltas(2);
  readonly durationDays = new Deltas(1);
  readonly durationHours = new Deltas(1);
  readonly sessionHours = new Deltas(1);
  readonly toolSessionHours = new Deltas(1);
  private readonly ids = new KeyIds();

  /** The id of a call's (project, tool, client). */
  private toolClientOf(r: RollupRow): number {
    const { ids } = this;
    return ids.pair(ids.pair(r.project_id, ids.text(r.tool_name)), ids.text(r.client_name));
  }

  /** The id of a call's session: (project, session, client). */
  sessionIdOf(r: RollupRow): number {
    return this.sessionKeyId(r.project_id, r.session_id, r.client_name);
  }

  /** The id of a session by its key columns. */
  sessionKeyId(project: number, session: string, client: string): number {
    const { ids } = this;
    return ids.pair(ids.pair(project, ids.text(session)), ids.text(client));
  }

  private sessionAt(r: RollupRow): number[] {
    return this.sessions.at(this.sessionIdOf(r), 0, () => [
      r.project_id,
      r.session_id,
      r.client_name,
    ]);
  }

  /**
   * The parts of a call's contribution that depend on its derived facts: the stat rows by day,
   * all time and hour, the hourly mix, its transition pair and its session's dynamic counts.
   */
  contribute(r: RollupRow, f: DerivedFacts, sign: number): void {
    const tc = this.toolClientOf(r);
    const oc = outcomeClass(r.outcome, r.is_empty);
    const head = f.chain === 1 && f.prev_link === LINK.none ? 1 : 0;
    const lat = 3 + latencyBucketIndex(r.duration_ms);
    const day = utcDay(r.started_ms);
    const hour = utcHour(r.started_ms);
    const p = r.project_id;
    // Two explicit calls, not a loop over [day, ALL_TIME]: no array per call on ingest's path.
    this.addDaily(r, tc, day, oc, f.link, head, lat, sign);
    this.addDaily(r, tc, ALL_TIME, oc, f.link, head, lat, sign);
    this.contributePair(r, f.prev_tool, sign);
    const hs = this.hourStats.at(tc, hour * 64 + oc * 8 + f.link * 2 + head, () => [
      p,
      hour,
      r.tool_name,
      r.client_name,
      oc,
      f.link,
      head,
    ]);
    addStats(hs, r, lat, sign);
    const h = this.hourly.at(p, hour * 32 + oc * 4 + f.link, () => [p, hour, oc, f.link]);
    h[0]! += sign;
    h[1]! += sign * r.response_bytes;
    // metrics_sessions, dynamic part: fcs, retries, repeats, unknown links, chains (9–13).
    const v = this.sessionAt(r);
    v[9]! += sign * f.fcs;
    if (f.link === LINK.retry) v[10]! += sign;
    else if (f.link === LINK.repeat) v[11]! += sign;
    else if (f.link === LINK.unknown) v[12]! += sign;
    v[13]! += sign * head;
  }

  /** A call's transition from `prevTool` (none when null or the same tool), by day and all time. */
  contributePair(r: RollupRow, prevTool: string | null, sign: number): void {
    if (prevTool === null || prevTool === r.tool_name) return;
    const { ids } = this;
    const p = r.project_id;
    const client = r.client_name;
    const a = ids.pair(
      ids.pair(ids.pair(p, ids.text(client)), ids.text(prevTool)),
      ids.text(r.tool_name),
    );
    const day = utcDay(r.started_ms);
    this.pairs.at(a, day, () => [p, day, client, prevTool, r.tool_name])[0]! += sign;
    this.pairs.at(a, ALL_TIME, () => [p, ALL_TIME, client, prevTool, r.tool_name])[0]! += sign;
  }

  /** One day's (or all time's) stat row of a call. */
  private addDaily(
    r: RollupRow,
    tc: number,
    d: number,
    oc: number,
    link: number,
    head: number,
    lat: number,
    sign: number,
  ): void {
    const v = this.daily.at(tc, d * 64 + oc * 8 + link * 2 + head, () => [
      r.project_id,
      d,
      r.tool_name,
      r.client_name,
      oc,
      link,
      head,
    ]);
    addStats(v, r, lat, sign);
  }

  /** One day's (or all time's) share of a call's size. */
  private addSize(r: RollupRow, tc: number, d: number, sb: number, sign: number): void {
    const z = this.sizes.at(tc, d * 64 + sb, () => [
      r.project_id,
      d,
      r.tool_name,
      r.client_name,
      sb,
    ]);
    z[0]! += sign;
    z[1]! += sign * r.response_bytes;
  }

  /**
   * The parts that never change after insert: the session's static counts, sizes (in
   * `sizeBucket`), exact durations and latency buckets overall, by day and by hour, and the
   * session's hour, overall and for its tool.
   */
  contributeStatic(r: RollupRow, sizeBucket: number, sign: number): void {
    const { ids } = this;
    const { project_id: p, tool_name: tool, duration_ms: ms } = r;
    const v = this.sessionAt(r);
    v[0]! += sign; // calls
    v[1 + outcomeClass(r.outcome, r.is_empty)]! += sign; // ok, empty, bad_args, tool_error, crashed
    v[14]! += sign * r.response_bytes;
    v[15]! += sign * ms;
    if (ms >= SLOW_CALL_MS) v[16]! += sign;
    const tc = this.toolClientOf(r);
    const day = utcDay(r.started_ms);
    const hour = utcHour(r.started_ms);
    this.addSize(r, tc, day, sizeBucket, sign);
    this.addSize(r, tc, ALL_TIME, sizeBucket, sign);
    const fb = fineBucket(ms);
    const toolKey = ids.pair(p, ids.text(tool));
    const allKey = ids.pair(p, -1);
    this.durations.at(p, ms, () => [p, ms])[0]! += sign;
    this.latency.at(toolKey, fb, () => [p, tool, fb])[0]! += sign;
    this.latency.at(allKey, fb, () => [p, '', fb])[0]! += sign;
    // By day per tool (a range's percentiles are read tool by tool), by hour per tool and for
    // all tools (the time series' p95): `b` packs the time over the fine bucket (< 1024), `a`
    // the project and tool.
    addLatency(
      this.latencyDays.at(toolKey, day * 1024 + fb, () => [p, tool, day, fb]),
      ms,
      sign,
    );
    addLatency(
      this.latencyHours.at(toolKey, hour * 1024 + fb, () => [p, tool, hour, fb]),
      ms,
      sign,
    );
    addLatency(
      this.latencyHours.at(allKey, hour * 1024 + fb, () => [p, '', hour, fb]),
      ms,
      sign,
    );
    // Exact durations per tool, by day and by hour: `a` names the tool and the time.
    this.durationDays.at(ids.pair(toolKey, day), ms, () => [p, tool, day, ms])[0]! += sign;
    this.durationHours.at(ids.pair(toolKey, hour), ms, () => [p, tool, hour, ms])[0]! += sign;
    const session = this.sessionIdOf(r);
    this.sessionHours.at(session, hour, () => [p, hour, r.session_id, r.client_name])[0]! += sign;
    this.toolSessionHours.at(ids.pair(session, ids.text(tool)), hour, () => [
      p,
      tool,
      hour,
      r.session_id,
      r.client_name,
    ])[0]! += sign;
  }

  /**
   * Every rollup but `metrics_sessions` (whose first and last times are not sums), each with
   * its table name, in the order the ingest path writes them.
   */
  tables(): [table: string, deltas: Deltas][] {
    return [
      ['metrics_daily', this.daily],
      ['metrics_pairs', this.pairs],
      ['metrics_sizes', this.sizes],
      ['metrics_latency', this.latency],
      ['metrics_durations', this.durations],
      ['metrics_hourly', this.hourly],
      ['metrics_hour_stats', this.hourStats],
      ['metrics_latency_days', this.latencyDays],
      ['metrics_latency_hours', this.latencyHours],
      ['metrics_duration_days', this.durationDays],
      ['metrics_duration_hours', this.durationHours],
      ['metrics_session_hours', this.sessionHours],
      ['metrics_tool_session_hours', this.toolSessionHours],
    ];
  }
}

/** A call in a stat row: calls, units, duration and its latency band (column `lat`). */
function addStats(v: number[], r: RollupRow, lat: number, sign: number): void {
  v[0]! += sign;
  v[1]! += sign * r.response_bytes;
  v[2]! += sign * r.duration_ms;
  v[lat]! += sign;
}

/** A call in a latency row: its count and its duration. */
function addLatency(v: number[], ms: number, sign: number): void {
  v[0]! += sign;
  v[1]! += sign * ms;
}
