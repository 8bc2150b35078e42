/**
 * `GET /api/tools/:name/errors`: a tool's failing calls grouped by error text (the usual
 * filters apply), and the content insight the insights route adds — the most common error
 * among each tool's failing first calls. Shapes in docs/api.md, "Proxy content".
 */
import { groupErrors, type ErrorGroupView } from '../metrics/error-groups.js';
import { firstCallErrorInsights, type FirstCallErrorInsight } from '../metrics/error-insights.js';
import type { CallFilter } from '../shared/rows.js';
import type { ReadStore } from '../store/index.js';
import { echo } from './metrics-params.js';
import { limitOf } from './params.js';
import type { RouteMap } from './types.js';

/** The first-call-error insights of the view; none when no proxy content is stored. */
export function contentInsightsOf(store: ReadStore, filter: CallFilter): FirstCallErrorInsight[] {
  const errors = store.read.toolErrors;
  if (!errors.anyContent()) return [];
  const byTool = new Map<string, Parameters<typeof groupErrors>[0][number][]>();
  for (const row of errors.failingCalls(filter).rows) {
    if (!row.has_content || !row.first_call) continue;
    let list = byTool.get(row.tool_name);
    if (!list) byTool.set(row.tool_name, (list = []));
    list.push(row);
  }
  const groups = new Map<string, ErrorGroupView[]>();
  for (const [tool, calls] of byTool) groups.set(tool, groupErrors(calls));
  return firstCallErrorInsights(groups, errors.firstCalls(filter, [...groups.keys()]));
}

export const toolErrorRoutes = {
  'GET /api/tools/:name/errors': ({ store, filter, params, query }) => {
    const f: CallFilter = { ...filter, tool: params.name! };
    const limit = limitOf(query, 50, 1000);
    const { rows, capped } = store.read.toolErrors.failingCalls(f);
    const groups = groupErrors(rows);
    return {
      tool: params.name!,
      /** Failing calls looked at (at most 20,000: `capped` says there were more). */
      failing_calls: rows.length,
      capped,
      /** Groups beyond `limit`, by how many calls they hold together. */
      more: {
        groups: Math.max(0, groups.length - limit),
        calls: groups.slice(limit).reduce((n, g) => n + g.count, 0),
      },
      groups: groups.slice(0, limit),
      filter: echo(f),
    };
  },
} satisfies RouteMap;
