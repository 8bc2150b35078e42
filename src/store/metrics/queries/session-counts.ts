/** Session counts of a view: distinct sessions, the schema they loaded, sessions per client. */
import { splitByHours } from '../../../metrics/time.js';
import type { CallFilter } from '../../../shared/rows.js';
import type { QueryContext } from './context.js';
import { toolCalls } from './tool-calls.js';
import { conditions, RAW, SCHEMA_OF_SESSION, type Params } from './sql-parts.js';

/**
 * `(session_id, client_name)` rows (repeats allowed) of the sessions with calls in a time
 * range, or of one tool's sessions, without a session filter: the hourly session rollup (one
 * tool's, for a tool) for the whole hours, raw calls only for the range's partial hours. Null
 * when the view needs the raw calls throughout (a range inside one hour) or the rollup of all
 * time answers (no range, no tool).
 */
function hourlySessions(f: CallFilter): { sql: string; params: Params } | null {
  const tool = f.tool !== undefined;
  const ranged = f.from !== undefined || f.to !== undefined;
  if (f.session !== undefined || (!tool && !ranged)) return null;
  const { whole, partial } = splitByHours({ from: f.from, to: f.to });
  if (!whole) return null;
  const where = ['project_id = @projectId', 'hour_ms >= @hf', 'hour_ms < @ht', 'calls > 0'];
  const params: Params = {
    hf: whole.from ?? -Number.MAX_SAFE_INTEGER,
    ht: whole.to ?? Number.MAX_SAFE_INTEGER,
  };
  if (tool) {
    where.push('tool_name = @tool');
    params.tool = f.tool!;
  }
  if (f.client !== undefined) {
    where.push('client_name = @client');
    params.client = f.client;
  }
  const table = tool ? 'metrics_tool_session_hours' : 'metrics_session_hours';
  const parts = [`SELECT session_id, client_name FROM ${table} WHERE ${where.join(' AND ')}`];
  partial.forEach((e, i) => {
    params[`pf${i}`] = e.from ?? -Number.MAX_SAFE_INTEGER;
    params[`pt${i}`] = e.to ?? Number.MAX_SAFE_INTEGER;
    const from = tool
      ? toolCalls({ from: `@pf${i}`, to: `@pt${i}` })
      : 'calls INDEXED BY calls_by_time';
    parts.push(
      `SELECT session_id, client_name FROM ${from}
       WHERE project_id = @projectId AND started_ms >= @pf${i} AND started_ms < @pt${i}
         ${f.client !== undefined ? 'AND client_name = @client' : ''}`,
    );
  });
  return { sql: parts.join(' UNION ALL '), params };
}

/** Distinct-session counts for a filter. */
export function sessionCountQueries(ctx: QueryContext) {
  const { prepare, projectsOf, callsOf } = ctx;

  /**
   * `(session_id, client_name)` rows (repeats allowed) of the sessions with calls matching the
   * filter in project `p`: the session rollup when only a client narrows the view, the hourly
   * session rollups for a time range or a tool, else the matching calls.
   */
  function sessionRows(p: number, f: CallFilter): { sql: string; params: Params } {
    const plain =
      f.from === undefined && f.to === undefined && f.tool === undefined && f.session === undefined;
    if (plain) {
      const w = conditions(f, { client: 'client_name' });
      return {
        sql: `SELECT session_id, client_name FROM metrics_sessions WHERE ${w.sql} AND calls > 0`,
        params: { ...w.params, projectId: p },
      };
    }
    const hourly = hourlySessions(f);
    if (hourly) return { sql: hourly.sql, params: { ...hourly.params, projectId: p } };
    const w = conditions(f, RAW);
    return {
      sql: `SELECT session_id, client_name FROM ${callsOf(p, f, f, true)} WHERE ${w.sql}`,
      params: { ...w.params, projectId: p },
    };
  }

  return {
    /** Distinct sessions with at least one call matching the filter. */
    sessionCount(f: CallFilter): number {
      let n = 0;
      for (const p of projectsOf(f)) {
        const { sql, params } = sessionRows(p, f);
        n +=
          (prepare(`SELECT count(DISTINCT session_id) FROM (${sql})`).pluck().get(params) as
            number | undefined) ?? 0;
      }
      return n;
    },

    /**
     * Sessions matching the filter, and the schema they loaded: the total of each session's
     * latest startup (sessions without a startup add nothing).
     */
    sessionSchema(f: CallFilter): { sessions: number; with_startup: number; schema_bytes: number } {
      const out = { sessions: 0, with_startup: 0, schema_bytes: 0 };
      for (const p of projectsOf(f)) {
        const { sql, params } = sessionRows(p, f);
        const r = prepare(
          `SELECT count(*) AS n, count(b) AS k, coalesce(sum(b), 0) AS b
           FROM (SELECT ${SCHEMA_OF_SESSION('@projectId', 'd.session_id')} AS b
                 FROM (SELECT DISTINCT session_id FROM (${sql})) d)`,
        ).get(params) as { n: number; k: number; b: number };
        out.sessions += r.n;
        out.with_startup += r.k;
        out.schema_bytes += r.b;
      }
      return out;
    },

    /** Distinct sessions per client for the filter. */
    sessionsPerClient(f: CallFilter): Map<string, number> {
      const out = new Map<string, number>();
      for (const p of projectsOf(f)) {
        const { sql, params } = sessionRows(p, f);
        const rows = prepare(
          `SELECT client_name, count(DISTINCT session_id) FROM (${sql}) GROUP BY client_name`,
        )
          .raw()
          .all(params) as [string, number][];
        for (const [c, n] of rows) out.set(c, (out.get(c) ?? 0) + n);
      }
      return out;
    },
  };
}
