/**
 * One tool's calls without an index in tool order (migration 013): the tool's rows in
 * `metrics_tool_session_hours` name the (hour, session, client) that hold its calls, and each
 * is followed into that session's calls of that hour in `calls_by_session` (project, session,
 * start, id, tool, client), whose entries name the tool and client, so no other tool's row is
 * read from the table.
 */
import { HOUR_MS } from '../../../shared/metric-constants.js';
import type { Span } from '../../../metrics/time.js';
import type { CallFilter } from '../../../shared/rows.js';

/** Where {@link toolCalls} finds the tool's calls. */
export interface ToolCallsScope {
  /** SQL for the lower bound of the calls' start, when there is one (an expression). */
  from?: string;
  /** SQL for the upper bound (exclusive), when there is one. */
  to?: string;
  /** The condition on the project column: `= @projectId` unless said otherwise. */
  projects?: string;
  /** The subquery's name in the statement: `calls` unless said otherwise. */
  alias?: string;
}

/**
 * A subquery of the calls of the tool named `@tool`, named like the table so a statement
 * reads it as it reads `calls`. SQLite flattens it into the statement: the statement's own
 * conditions narrow both sides, and a read of the columns `calls_by_session` holds reads no
 * table row. The bounds narrow the hours read; the statement still states its own range.
 */
export function toolCalls(scope: ToolCallsScope = {}): string {
  const { from, to, projects = '= @projectId', alias = 'calls' } = scope;
  const hours = [
    from !== undefined ? `AND h.hour_ms > ${from} - ${HOUR_MS}` : '',
    to !== undefined ? `AND h.hour_ms < ${to}` : '',
  ].join(' ');
  return `(SELECT c.* FROM metrics_tool_session_hours h CROSS JOIN calls c INDEXED BY calls_by_session
    WHERE h.project_id ${projects} AND h.tool_name = @tool ${hours} AND h.calls > 0
      AND c.project_id = h.project_id AND c.session_id = h.session_id
      AND c.started_ms >= h.hour_ms AND c.started_ms < h.hour_ms + ${HOUR_MS}
      AND c.tool_name = h.tool_name AND c.client_name = h.client_name) AS ${alias}`;
}

/** Whether a read of `f` is of one tool's calls outside a session: {@link toolCalls}' reads. */
export const isOneTool = (f: CallFilter): boolean =>
  f.tool !== undefined && f.session === undefined;

/**
 * {@link toolCalls} bounded by a span read with `conditions(f, RAW, span)` or `callFilterSql`
 * (`@from`, `@to`), in the projects and under the name `scope` gives.
 */
export const toolCallsIn = (span: Span, scope: Omit<ToolCallsScope, 'from' | 'to'> = {}): string =>
  toolCalls({
    ...scope,
    from: span.from !== undefined ? '@from' : undefined,
    to: span.to !== undefined ? '@to' : undefined,
  });

/**
 * The FROM of a read filtered with `callFilterSql(filter, alias)` (src/store/filter-sql.ts):
 * {@link toolCalls} for one tool's calls outside a session, else the table itself.
 */
export function callsFor(filter: CallFilter, alias = ''): string {
  if (!isOneTool(filter)) return alias ? `calls ${alias}` : 'calls';
  return toolCallsIn(filter, {
    projects: filter.projectId !== undefined ? '= @projectId' : 'IN (SELECT id FROM projects)',
    alias: alias || 'calls',
  });
}
