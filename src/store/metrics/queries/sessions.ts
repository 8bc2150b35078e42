/** Session queries: the sessions list, which project holds a session, its calls and startups. */
import type { SessionSort } from '../../../shared/session-sorts.js';
import type { CallFilter } from '../../../shared/rows.js';
import { HEAD_SQL, OC_SQL } from '../sql.js';
import { CALL_COLUMNS, type FactRow } from './call-rows.js';
import type { QueryContext } from './context.js';
import { isOneTool, toolCallsIn } from './tool-calls.js';
import { SESSION_LABEL_FIELDS, sessionNamer, type SessionName } from './session-names.js';
import { conditions, RAW, SCHEMA_OF_SESSION, type Params } from './sql-parts.js';

/** One row of a sessions list (with what names it: first tool, an SDK's label). */
export interface SessionRow extends SessionName {
  project_id: number;
  session_id: string;
  clients: string[];
  first_ms: number;
  last_ms: number;
  last_end_ms: number;
  calls: number;
  ok: number;
  empty: number;
  bad_args: number;
  tool_error: number;
  crashed: number;
  fcs: number;
  retries: number;
  repeats: number;
  unknown_links: number;
  chains: number;
  units: number;
  duration: number;
  slow: number;
  schema_bytes: number | null;
  /** The `sdk` extra of the session's latest startup that names one (e.g. the devtools proxy). */
  sdk: string | null;
}

const SESSION_SORT_SQL: Record<SessionSort, string> = {
  last_seen: 'last_ms',
  first_seen: 'first_ms',
  duration: '(last_end_ms - first_ms)',
  calls: 'calls',
  first_call_success: '(CAST(fcs AS REAL) / calls)',
  retries: 'retries',
  chains: 'chains',
  errors: '(bad_args + tool_error + crashed)',
  units: 'units',
  cost: '(units + coalesce(schema_bytes, 0))',
};

/** Per-session aggregates of raw calls (the columns of `metrics_sessions`). */
const SESSION_AGG_COLUMNS = (oc: string, head: string) => `
  min(started_ms) AS first_ms, max(started_ms) AS last_ms, max(started_ms + duration_ms) AS last_end_ms,
  count(*) AS calls, sum(${oc} = 0) AS ok, sum(${oc} = 1) AS empty, sum(${oc} = 2) AS bad_args,
  sum(${oc} = 3) AS tool_error, sum(${oc} = 4) AS crashed, sum(fcs) AS fcs, sum(link = 1) AS retries,
  sum(link = 2) AS repeats, sum(link = 3) AS unknown_links, sum(${head}) AS chains,
  sum(response_bytes) AS units, sum(duration_ms) AS duration, sum(duration_ms >= 2000) AS slow`;

/** The first tool of the session of row `s` (session order), for search. */
const FIRST_TOOL_SQL = `(SELECT c.tool_name FROM calls c INDEXED BY calls_by_session
  WHERE c.project_id = s.project_id AND c.session_id = s.session_id ORDER BY c.started_ms, c.id LIMIT 1)`;

/** Whether a startup of the session of row `s` carries a label field holding `@q`. */
const LABEL_MATCH_SQL = `EXISTS (SELECT 1 FROM startups st INDEXED BY startups_by_session
  WHERE st.project_id = s.project_id AND st.session_id = s.session_id AND st.extra IS NOT NULL
  AND instr(lower(${SESSION_LABEL_FIELDS.map((f) => `coalesce(json_extract(st.extra, '$.${f}'), '')`).join(" || ' ' || ")}), @q) > 0)`;

/**
 * Per (session, client) rows for sessions that sent a startup and no call at all — a client
 * that connected, listed the tools and left is a session too ("no tool calls"). Timed by when
 * the startups arrived (a startup has no start time of its own); the same columns, in the same
 * order, as `metrics_sessions`. A tool filter never matches them. "No call" is read from the
 * session rollup, not the calls index: a seek into 50,000 rows instead of ten million, for every
 * startup (120 → 21 ms on the 10M-call bench).
 */
function startupOnlySql(f: CallFilter, inList: string, params: Params): string {
  const parts = [`st.project_id IN (${inList})`];
  if (f.client !== undefined) {
    parts.push('st.client_name = @client');
    params.client = f.client;
  }
  if (f.session !== undefined) {
    parts.push('st.session_id = @session');
    params.session = f.session;
  }
  if (f.from !== undefined) {
    parts.push('st.received_ms >= @from');
    params.from = f.from;
  }
  if (f.to !== undefined) {
    parts.push('st.received_ms < @to');
    params.to = f.to;
  }
  return `SELECT st.project_id, st.session_id, st.client_name, min(st.received_ms) AS first_ms,
      max(st.received_ms) AS last_ms, max(st.received_ms) AS last_end_ms, 0 AS calls, 0 AS ok,
      0 AS empty, 0 AS bad_args, 0 AS tool_error, 0 AS crashed, 0 AS fcs, 0 AS retries,
      0 AS repeats, 0 AS unknown_links, 0 AS chains, 0 AS units, 0 AS duration, 0 AS slow
    FROM startups st INDEXED BY startups_by_session
    WHERE ${parts.join(' AND ')} AND NOT EXISTS (SELECT 1 FROM metrics_sessions m
      WHERE m.project_id = st.project_id AND m.session_id = st.session_id AND m.calls > 0)
    GROUP BY st.project_id, st.session_id, st.client_name`;
}

/** A stored `sdk` extra as a name, or `null` when absent or not a string. */
const sdkName = (value: unknown): string | null =>
  typeof value === 'string' ? value.slice(0, 200) : null;

/** Sessions: the list and one session in full. */
export function sessionQueries(ctx: QueryContext) {
  const { prepare, projectsOf, all, toolsOf } = ctx;
  const nameOf = sessionNamer(ctx.db);
  /** The label and first tool that title a row (the rows carry their own first call time). */
  const namingOf = (project: number, session: string) => {
    const { label, first_tool } = nameOf(project, session);
    return { label, first_tool };
  };
  return {
    /**
     * A page of sessions (filters select the calls counted), with the total. `q` matches a
     * session id or client name (case-insensitive substring).
     */
    sessions(
      f: CallFilter,
      opts: { q?: string; sort: SessionSort; order: 'asc' | 'desc'; limit: number; offset: number },
    ): { total: number; rows: SessionRow[] } {
      const projects = projectsOf(f);
      if (projects.length === 0) return { total: 0, rows: [] };
      const plain =
        f.from === undefined &&
        f.to === undefined &&
        f.tool === undefined &&
        f.session === undefined;
      const inList = projects.join(', ');
      const params: Params = {};
      // Per (session, client) rows from the rollup or from the matching calls; then one row
      // per session with its clients joined by U+001F (client names may hold commas).
      let perClient: string;
      if (plain) {
        const parts = [`project_id IN (${inList})`, 'calls > 0'];
        if (f.client !== undefined) {
          parts.push('client_name = @client');
          params.client = f.client;
        }
        perClient = `SELECT * FROM metrics_sessions WHERE ${parts.join(' AND ')}`;
      } else {
        const { projectId: _p, ...rest } = f;
        const w = conditions(rest, RAW);
        const sqlWhere = w.sql.replace('project_id = @projectId', `project_id IN (${inList})`);
        Object.assign(params, w.params);
        // One tool's calls come through its sessions by hour (no other tool's call is read).
        const from = isOneTool(f) ? toolCallsIn(f, { projects: `IN (${inList})` }) : 'calls';
        perClient = `SELECT project_id, session_id, client_name, ${SESSION_AGG_COLUMNS(OC_SQL(), HEAD_SQL())}
          FROM ${from} WHERE ${sqlWhere} GROUP BY project_id, session_id, client_name`;
      }
      if (f.tool === undefined)
        perClient = `${perClient} UNION ALL ${startupOnlySql(f, inList, params)}`;
      const source = `SELECT project_id, session_id, group_concat(client_name, char(31)) AS clients,
            min(first_ms) AS first_ms, max(last_ms) AS last_ms, max(last_end_ms) AS last_end_ms,
            sum(calls) AS calls, sum(ok) AS ok, sum(empty) AS empty, sum(bad_args) AS bad_args,
            sum(tool_error) AS tool_error, sum(crashed) AS crashed, sum(fcs) AS fcs,
            sum(retries) AS retries, sum(repeats) AS repeats, sum(unknown_links) AS unknown_links,
            sum(chains) AS chains, sum(units) AS units, sum(duration) AS duration, sum(slow) AS slow
          FROM (${perClient}) GROUP BY project_id, session_id`;
      const search = opts.q?.trim();
      let having = '';
      if (search) {
        // The name a list shows is searchable too: the first tool and an SDK's label.
        having = `WHERE instr(lower(session_id), @q) > 0 OR instr(lower(clients), @q) > 0
          OR instr(lower(coalesce(${FIRST_TOOL_SQL}, '')), @q) > 0 OR ${LABEL_MATCH_SQL}`;
        params.q = search.toLowerCase();
      }
      const needsSchema = opts.sort === 'cost';
      const schemaCol = needsSchema
        ? `, ${SCHEMA_OF_SESSION('s.project_id', 's.session_id')} AS schema_bytes`
        : '';
      const dir = opts.order === 'asc' ? 'ASC' : 'DESC';
      const sql = `WITH s AS (${source}), v AS (SELECT s.*${schemaCol} FROM s ${having})
        SELECT *, count(*) OVER () AS total FROM v
        ORDER BY ${SESSION_SORT_SQL[opts.sort]} ${dir}, session_id ${dir} LIMIT @limit OFFSET @offset`;
      const rows = all<Omit<SessionRow, 'clients'> & { clients: string; total: number }>(sql, {
        ...params,
        limit: opts.limit,
        offset: opts.offset,
      });
      const total =
        rows[0]?.total ??
        (opts.offset > 0
          ? (all<{ n: number }>(
              `WITH s AS (${source}) SELECT count(*) AS n FROM s ${having}`,
              params,
            )[0]?.n ?? 0)
          : 0);
      const schema = prepare(`SELECT ${SCHEMA_OF_SESSION('@p', '@s')} AS b`).pluck();
      const sdk = prepare(
        `SELECT json_extract(extra, '$.sdk') FROM startups INDEXED BY startups_by_session
          WHERE project_id = @p AND session_id = @s AND json_extract(extra, '$.sdk') IS NOT NULL
          ORDER BY id DESC LIMIT 1`,
      ).pluck();
      return {
        total,
        rows: rows.map(({ total: _t, ...r }) => ({
          ...r,
          ...namingOf(r.project_id, r.session_id),
          clients: r.clients.split('\u001f').sort(),
          schema_bytes: needsSchema
            ? r.schema_bytes
            : ((schema.get({ p: r.project_id, s: r.session_id }) as number | null) ?? null),
          sdk: sdkName(sdk.get({ p: r.project_id, s: r.session_id })),
        })),
      };
    },

    /**
     * Which project holds a session (the most recently active when several do) — one with
     * calls, else one that only sent a startup.
     */
    sessionProject(session: string, projectId?: number): number | undefined {
      if (projectId !== undefined) {
        const hit =
          prepare(
            'SELECT 1 FROM metrics_sessions WHERE project_id = ? AND session_id = ? LIMIT 1',
          ).get(projectId, session) ??
          prepare(
            'SELECT 1 FROM startups INDEXED BY startups_by_session WHERE project_id = ? AND session_id = ? LIMIT 1',
          ).get(projectId, session);
        return hit ? projectId : undefined;
      }
      return (
        (prepare(
          'SELECT project_id FROM metrics_sessions WHERE session_id = ? ORDER BY last_ms DESC LIMIT 1',
        )
          .pluck()
          .get(session) as number | undefined) ??
        (prepare(
          'SELECT project_id FROM startups WHERE session_id = ? ORDER BY received_ms DESC LIMIT 1',
        )
          .pluck()
          .get(session) as number | undefined) ??
        undefined
      );
    },

    /** Every call of one session in session order, with stored facts. */
    sessionCalls(projectId: number, session: string): FactRow[] {
      return all<FactRow>(
        `SELECT ${CALL_COLUMNS} FROM calls INDEXED BY calls_by_session
         WHERE project_id = @p AND session_id = @s ORDER BY started_ms, id`,
        { p: projectId, s: session },
      );
    },

    /** Startups of one session, oldest first, with their tools. */
    sessionStartups(projectId: number, session: string) {
      const rows = all<{ id: number; client_name: string; received_ms: number }>(
        `SELECT id, client_name, received_ms FROM startups WHERE project_id = @p AND session_id = @s ORDER BY id`,
        { p: projectId, s: session },
      );
      return rows.map((r) => ({ ...r, tools: toolsOf.all(r.id) }));
    },
  };
}
