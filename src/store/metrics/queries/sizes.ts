/** Response-size histogram query: whole days from the size rollup, edges from raw calls. */
import type { CallFilter } from '../../../shared/rows.js';
import type { QueryContext } from './context.js';
import { conditions, RAW, rollupConditions } from './sql-parts.js';

/** Response sizes for a filter. */
export function sizeQueries(ctx: QueryContext) {
  const { prepare, byDays } = ctx;
  return {
    /** Response-size histogram rows `[tool, bucket, count, units]`. */
    sizes(f: CallFilter): [string, number, number, number][] {
      return byDays(
        f,
        (p, span) => {
          const w = rollupConditions(f, { tool: 'tool_name', client: 'client_name' }, span);
          return prepare(
            `SELECT tool_name, bucket, sum(n), sum(units) FROM metrics_sizes WHERE ${w.sql}
             GROUP BY tool_name, bucket HAVING sum(n) > 0`,
          )
            .raw()
            .all({ ...w.params, projectId: p }) as [string, number, number, number][];
        },
        (p, span) => {
          const w = conditions(f, RAW, span);
          return prepare(
            `SELECT tool_name, size_bucket, count(*), sum(response_bytes) FROM calls WHERE ${w.sql}
             GROUP BY tool_name, size_bucket`,
          )
            .raw()
            .all({ ...w.params, projectId: p }) as [string, number, number, number][];
        },
      );
    },
  };
}
