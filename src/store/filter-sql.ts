import type { CallFilter } from '../shared/rows.js';

/**
 * Builds the `WHERE` clause for a {@link CallFilter} over the `calls` table (optionally
 * aliased). Values are bound as named parameters, never interpolated.
 */
export function callFilterSql(
  filter: CallFilter,
  alias = '',
): { where: string; params: Record<string, string | number> } {
  const p = alias ? `${alias}.` : '';
  const parts: string[] = [];
  const params: Record<string, string | number> = {};
  if (filter.projectId !== undefined) {
    parts.push(`${p}project_id = @projectId`);
    params.projectId = filter.projectId;
  }
  if (filter.from !== undefined) {
    parts.push(`${p}started_ms >= @from`);
    params.from = filter.from;
  }
  if (filter.to !== undefined) {
    parts.push(`${p}started_ms < @to`);
    params.to = filter.to;
  }
  if (filter.tool !== undefined) {
    parts.push(`${p}tool_name = @tool`);
    params.tool = filter.tool;
  }
  if (filter.client !== undefined) {
    parts.push(`${p}client_name = @client`);
    params.client = filter.client;
  }
  if (filter.session !== undefined) {
    parts.push(`${p}session_id = @session`);
    params.session = filter.session;
  }
  return { where: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}
