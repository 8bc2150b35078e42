/** Tool queries: registered tools and tool pairs. */
import type { CallFilter } from '../../../shared/rows.js';
import type { QueryContext } from './context.js';
import { conditions, RAW, rollupConditions } from './sql-parts.js';

/** Registered tools of one project's latest startup. */
export interface RegisteredTool {
  project_id: number;
  startup_id: number;
  name: string;
  schema_bytes: number;
}

/** Tools for a filter. */
export function toolQueries(ctx: QueryContext) {
  const { prepare, projectsOf, byDays, latestStartup, toolsOf } = ctx;
  return {
    /** Tools of each covered project's latest startup. */
    registered(f: CallFilter): RegisteredTool[] {
      const out: RegisteredTool[] = [];
      for (const p of projectsOf(f)) {
        const s = latestStartup.get(p);
        if (!s) continue;
        for (const t of toolsOf.all(s.id)) out.push({ project_id: p, startup_id: s.id, ...t });
      }
      return out;
    },

    /** Tool pairs A→B (A ≠ B), counted on B; `tool` matches either side. `[from, to, count]`. */
    pairs(f: CallFilter): [string, string, number][] {
      const tool = f.tool;
      const g: CallFilter = { ...f, tool: undefined };
      const toolSql = tool === undefined ? '' : ' AND (from_tool = @tool OR to_tool = @tool)';
      const rawToolSql = tool === undefined ? '' : ' AND (prev_tool = @tool OR tool_name = @tool)';
      const extra = tool === undefined ? {} : { tool };
      return byDays(
        g,
        (p, span) => {
          const w = rollupConditions(g, { client: 'client_name' }, span);
          return prepare(
            `SELECT from_tool, to_tool, sum(n) FROM metrics_pairs WHERE ${w.sql}${toolSql}
             GROUP BY from_tool, to_tool HAVING sum(n) > 0`,
          )
            .raw()
            .all({ ...w.params, ...extra, projectId: p }) as [string, string, number][];
        },
        (p, span) => {
          const w = conditions(g, RAW, span);
          return prepare(
            `SELECT prev_tool, tool_name, count(*) FROM calls WHERE ${w.sql}${rawToolSql}
               AND prev_tool IS NOT NULL AND prev_tool <> tool_name GROUP BY prev_tool, tool_name`,
          )
            .raw()
            .all({ ...w.params, ...extra, projectId: p }) as [string, string, number][];
        },
      );
    },
  };
}
