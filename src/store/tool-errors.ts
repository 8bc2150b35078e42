/**
 * The failing calls behind "why does this tool fail?" (migration 006): each failing call of
 * the view with whether it was the tool's first call in its session and, when the proxy
 * captured it, the answer it got. Grouping by error text is pure (src/metrics/error-groups.ts).
 */
import type Database from 'better-sqlite3';
import { callFilterSql } from './filter-sql.js';
import { callsFor } from './metrics/queries/tool-calls.js';
import { hasTable } from './has-table.js';
import { statementCache } from './statement-cache.js';
import type { MessageKind } from '../shared/proxy-content.js';
import type { CallFilter } from '../shared/rows.js';
import type { Outcome } from '../shared/outcomes.js';
import { HOUR_MS } from '../shared/metric-constants.js';

/** One failing call, with the content the proxy tied to it (if any). */
export interface FailingCallRow {
  id: number;
  session_id: string;
  tool_name: string;
  started_at: string;
  started_ms: number;
  outcome: Outcome;
  /** 1 when no earlier call of the same tool exists in its session. */
  first_call: number;
  /** 1 when the proxy stored any message for this call (0: an SDK's call). */
  has_content: number;
  /** The server's answer, when captured. */
  answer_kind: MessageKind | null;
  answer_body: string | null;
  answer_truncated: number | null;
}

/** The most failing calls one read looks at; `capped` says when there were more. */
export const MAX_FAILING_CALLS = 20_000;

/** The failing-call reads over one connection. */
export function createToolErrorReader(db: Database.Database) {
  const prepare = statementCache(db);
  // "First call" is a property of the call within its whole session, as first-call success
  // is (docs/metrics.md): no time filter applies to the earlier call looked for. The session's
  // index is read from its start up to the tool's first entry, once per (session, tool) of the
  // failing calls rather than once per call (migration 011).
  const firstOfTool = prepare(
    `SELECT id FROM calls INDEXED BY calls_by_session
      WHERE project_id = ? AND session_id = ? AND tool_name = ?
      ORDER BY started_ms, id LIMIT 1`,
  ).pluck();
  /** Sets each row's `first_call`, dropping the project id it was read with. */
  const markFirstCalls = (rows: (FailingCallRow & { project_id?: number })[]): void => {
    const firsts = new Map<string, number | undefined>();
    for (const r of rows) {
      const key = `${r.project_id}\u0000${r.session_id}\u0000${r.tool_name}`;
      if (!firsts.has(key)) {
        const first = firstOfTool.get(r.project_id, r.session_id, r.tool_name);
        firsts.set(key, first as number | undefined);
      }
      r.first_call = firsts.get(key) === r.id ? 1 : 0;
      delete r.project_id;
    }
  };

  /** {@link ToolErrorReader.firstCalls} in one session: its calls of the tool, in order. */
  function firstInSession(filter: CallFilter, tool: string): number {
    const scope = callFilterSql(
      { projectId: filter.projectId, session: filter.session, tool },
      'c',
    );
    const view = callFilterSql({ from: filter.from, to: filter.to, client: filter.client }, 'f');
    // SQLite's bare columns: with min(), started_ms and client_name are the first call's
    // (of two calls in one millisecond, either's client: they are one session's).
    return prepare(
      `SELECT count(*) FROM (
         SELECT min(c.started_ms) AS started_ms, c.client_name AS client_name
           FROM calls c ${scope.where} GROUP BY c.project_id, c.session_id
       ) f ${view.where}`,
    )
      .pluck()
      .get({ ...scope.params, ...view.params }) as number;
  }

  /** {@link ToolErrorReader.firstCalls} over every session: the tool's first hour in each. */
  function firstByHours(filter: CallFilter, tool: string): number {
    const { from, to, client } = filter;
    const params: Record<string, string | number> = { tool };
    let projects = 'IN (SELECT id FROM projects)';
    if (filter.projectId !== undefined) {
      projects = '= @projectId';
      params.projectId = filter.projectId;
    }
    // Whether the first call itself is in the view: in a first hour the range cuts.
    const exact: string[] = [];
    // Whether the first hour is, when the range does not cut it.
    const whole: string[] = [];
    const cut: string[] = [];
    if (from !== undefined) {
      params.from = from;
      exact.push('x.started_ms >= @from');
      whole.push('f.hour >= @from');
      cut.push(`(f.hour < @from AND f.hour + ${HOUR_MS} > @from)`);
    }
    if (to !== undefined) {
      params.to = to;
      exact.push('x.started_ms < @to');
      whole.push('f.hour < @to');
      cut.push(`(f.hour < @to AND f.hour + ${HOUR_MS} > @to)`);
    }
    if (client !== undefined) {
      params.client = client;
      exact.push('x.client_name = @client');
      whole.push('f.client_name = @client');
      // Two clients in the first hour: which one called first is in the calls alone.
      cut.push(`(SELECT count(*) FROM metrics_tool_session_hours o
        WHERE o.project_id = f.project_id AND o.tool_name = @tool AND o.hour_ms = f.hour
          AND o.session_id = f.session_id AND o.calls > 0) > 1`);
    }
    const firstCall = `SELECT c.started_ms, c.client_name FROM calls c INDEXED BY calls_by_session
      WHERE c.project_id = f.project_id AND c.session_id = f.session_id AND c.tool_name = @tool
        AND c.started_ms >= f.hour AND c.started_ms < f.hour + ${HOUR_MS}
      ORDER BY c.started_ms, c.id LIMIT 1`;
    const decide = cut.length
      ? `CASE WHEN ${cut.join(' OR ')}
          THEN EXISTS (SELECT 1 FROM (${firstCall}) x WHERE ${exact.join(' AND ')})
          ELSE ${whole.join(' AND ')} END`
      : '1';
    // SQLite's bare column: with min(), client_name is one of the first hour's clients.
    return prepare(
      `SELECT count(*) FROM (
         SELECT project_id, session_id, min(hour_ms) AS hour, client_name
           FROM metrics_tool_session_hours
          WHERE project_id ${projects} AND tool_name = @tool AND calls > 0
          GROUP BY project_id, session_id
       ) f WHERE ${decide}`,
    )
      .pluck()
      .get(params) as number;
  }

  return {
    /**
     * The view's failing calls (outcome other than `ok`), oldest first, at most
     * {@link MAX_FAILING_CALLS}; with content columns null on a file without migration 006.
     */
    failingCalls(filter: CallFilter): { rows: FailingCallRow[]; capped: boolean } {
      const { where, params } = callFilterSql(filter, 'c');
      const calls = callsFor(filter, 'c');
      const content = hasTable(db, 'proxy_messages');
      // One lookup for the answer (its row id), then its columns by rowid.
      const answerId = `(SELECT m.id FROM proxy_messages m INDEXED BY proxy_messages_by_call
          WHERE m.project_id = c.project_id AND m.session_id = c.session_id
            AND m.call_started_at = c.started_at AND m.direction = 'server'
            AND m.kind IN ('result', 'error') ORDER BY m.seq LIMIT 1)`;
      const hasContent = `(a.id IS NOT NULL OR EXISTS (SELECT 1 FROM proxy_messages m INDEXED BY proxy_messages_by_call
          WHERE m.project_id = c.project_id AND m.session_id = c.session_id
            AND m.call_started_at = c.started_at))`;
      const rows = prepare(
        content
          ? `SELECT c.id, c.project_id, c.session_id, c.tool_name, c.started_at, c.started_ms,
                    c.outcome, 0 AS first_call, ${hasContent} AS has_content,
                    a.kind AS answer_kind, a.body AS answer_body, a.truncated AS answer_truncated
               FROM ${calls} LEFT JOIN proxy_messages a ON a.id = ${answerId}
               ${where} ${where ? 'AND' : 'WHERE'} c.outcome <> 'ok'
              ORDER BY c.started_ms, c.id LIMIT @limit`
          : `SELECT c.id, c.project_id, c.session_id, c.tool_name, c.started_at, c.started_ms,
                    c.outcome, 0 AS first_call, 0 AS has_content, NULL AS answer_kind,
                    NULL AS answer_body, NULL AS answer_truncated
               FROM ${calls} ${where} ${where ? 'AND' : 'WHERE'} c.outcome <> 'ok'
              ORDER BY c.started_ms, c.id LIMIT @limit`,
      ).all({ ...params, limit: MAX_FAILING_CALLS + 1 }) as FailingCallRow[];
      const capped = rows.length > MAX_FAILING_CALLS;
      if (capped) rows.length = MAX_FAILING_CALLS;
      markFirstCalls(rows);
      return { rows, capped };
    },

    /**
     * For each of `tools`, how many of the view's calls were its first call in their session:
     * each session's earliest call of the tool (over the whole session), counted when it falls
     * in the view. Without a session filter, from the tool's sessions by hour (migration 013):
     * a session's first hour of the tool decides, and only a first hour cut by the view's range
     * (or shared by two clients under a client filter) is looked into for the exact call.
     */
    firstCalls(filter: CallFilter, tools: readonly string[]): Map<string, number> {
      const out = new Map<string, number>();
      for (const tool of tools) {
        out.set(
          tool,
          filter.session !== undefined ? firstInSession(filter, tool) : firstByHours(filter, tool),
        );
      }
      return out;
    },

    /** Whether any proxy content is stored (the content insight has nothing to say otherwise). */
    anyContent: (): boolean =>
      hasTable(db, 'proxy_messages') &&
      prepare('SELECT 1 FROM proxy_messages LIMIT 1').get() !== undefined,
  };
}

export type ToolErrorReader = ReturnType<typeof createToolErrorReader>;
