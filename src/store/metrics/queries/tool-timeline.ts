/**
 * Where one tool's calls start and end in time, from its sessions by hour
 * (`metrics_tool_session_hours`, migration 013): its first and last calls, read in its first
 * and last hours, and each session's first call of it — read call by call only where an hour
 * cannot answer alone.
 */
import { bucketStart } from '../../../metrics/time.js';
import { HOUR_MS } from '../../../shared/metric-constants.js';
import type { CallFilter } from '../../../shared/rows.js';
import type { QueryContext } from './context.js';
import { conditions, RAW } from './sql-parts.js';
import { toolCalls } from './tool-calls.js';

/** One tool's timeline reads over one connection. */
export function toolTimelineQueries(ctx: QueryContext) {
  const { prepare } = ctx;

  /** Hours looked into at a time for a tool's first or last call. */
  const EDGE_HOURS = 8;

  /**
   * The first (`ASC`) or last (`DESC`) call start of the filter's tool in project `p`, or null:
   * the tool's hours in that order (under the filter's range and client), each read until one
   * holds a call in the range — an hour cut by the range's edge may hold none.
   */
  function toolEdge(p: number, f: CallFilter, dir: 'ASC' | 'DESC'): number | null {
    const w = conditions(f, RAW);
    const params = { ...w.params, projectId: p };
    // An hour that starts before the range can still hold calls in it.
    const span = { from: f.from === undefined ? undefined : f.from - HOUR_MS + 1, to: f.to };
    const h = conditions(f, { time: 'hour_ms', tool: 'tool_name', client: 'client_name' }, span);
    const hours = prepare(
      `SELECT DISTINCT hour_ms FROM metrics_tool_session_hours WHERE ${h.sql} AND calls > 0
       ORDER BY hour_ms ${dir} LIMIT ${EDGE_HOURS} OFFSET @skip`,
    ).pluck();
    const inHour = prepare(
      `SELECT ${dir === 'ASC' ? 'min' : 'max'}(started_ms)
       FROM ${toolCalls({ from: '@hour', to: `@hour + ${HOUR_MS}` })}
       WHERE ${w.sql} AND started_ms >= @hour AND started_ms < @hour + ${HOUR_MS}`,
    ).pluck();
    for (let skip = 0; ; skip += EDGE_HOURS) {
      const batch = hours.all({ ...h.params, projectId: p, skip }) as number[];
      for (const hour of batch) {
        const ms = inHour.get({ ...params, hour }) as number | null;
        if (ms !== null) return ms;
      }
      if (batch.length < EDGE_HOURS) return null;
    }
  }

  /**
   * `sessionStarts` (./timeseries.ts) for one tool: each session's first hour of the tool
   * (under the client filter) from the tool's sessions by hour, and the exact first call only
   * where the hour alone cannot say in which bucket, or whether in the range, it falls.
   */
  function toolSessionStarts(
    p: number,
    f: CallFilter,
    grain?: { widthMs: number; offsetMs: number },
  ): number[] {
    const client = f.client !== undefined ? 'AND client_name = @client' : '';
    const params = {
      projectId: p,
      tool: f.tool!,
      ...(f.client !== undefined ? { client: f.client } : {}),
    };
    const firstHours = prepare(
      `SELECT session_id, min(hour_ms) FROM metrics_tool_session_hours
       WHERE project_id = @projectId AND tool_name = @tool AND calls > 0 ${client} GROUP BY session_id`,
    )
      .raw()
      .all(params) as [string, number][];
    const exact = prepare(
      `SELECT min(started_ms) FROM calls INDEXED BY calls_by_session
       WHERE project_id = @projectId AND session_id = @session AND tool_name = @tool ${client}
         AND started_ms >= @hour AND started_ms < @hour + ${HOUR_MS}`,
    ).pluck();
    const cuts = (at: number | undefined, hour: number) =>
      at !== undefined && hour < at && hour + HOUR_MS > at;
    const out: number[] = [];
    for (const [session, hour] of firstHours) {
      // A first hour wholly outside the range says enough.
      if (hour + HOUR_MS <= (f.from ?? -Infinity) || hour >= (f.to ?? Infinity)) continue;
      const whole =
        grain !== undefined &&
        !cuts(f.from, hour) &&
        !cuts(f.to, hour) &&
        bucketStart(hour, grain.widthMs, grain.offsetMs) ===
          bucketStart(hour + HOUR_MS - 1, grain.widthMs, grain.offsetMs);
      const m = whole ? hour : (exact.get({ ...params, session, hour }) as number);
      if ((f.from === undefined || m >= f.from) && (f.to === undefined || m < f.to)) out.push(m);
    }
    return out;
  }

  return { toolEdge, toolSessionStarts };
}
