/** Retry chain queries: counts, per-tool counts and a page of chains with their calls. */
import type { CallFilter } from '../../../shared/rows.js';
import { CALL_COLUMNS, type FactRow } from './call-rows.js';
import type { QueryContext } from './context.js';
import { conditions } from './sql-parts.js';

/** A row of `metrics_chains`. */
export interface ChainRow {
  run_id: number;
  project_id: number;
  session_id: string;
  tool_name: string;
  client_name: string;
  first_ms: number;
  last_ms: number;
  last_end_ms: number;
  calls: number;
  retries: number;
  repeats: number;
  unknown_links: number;
  resolved: number;
  tail_id: number;
}

/** Retry chains for a filter. */
export function chainQueries(ctx: QueryContext) {
  const { prepare, projectsOf, all } = ctx;
  return {
    /**
     * Retry chains whose first call matches the filter (time, client and tool of the first
     * call), newest first: the total, the resolved count, per-tool counts, and the page's
     * chains with every member call in session order.
     */
    chains(
      f: CallFilter,
      opts: { resolved?: boolean; limit: number; offset: number },
    ): {
      total: number;
      resolved: number;
      byTool: [string, number, number][];
      rows: ChainRow[];
      members: FactRow[];
    } {
      let total = 0;
      let resolved = 0;
      const byTool = new Map<string, [number, number]>();
      const rows: ChainRow[] = [];
      const res = opts.resolved === undefined ? '' : ` AND resolved = ${opts.resolved ? 1 : 0}`;
      for (const p of projectsOf(f)) {
        const w = conditions(f, {
          time: 'first_ms',
          tool: 'tool_name',
          client: 'client_name',
          session: 'session_id',
        });
        const params = { ...w.params, projectId: p };
        for (const [tool, n, r] of prepare(
          `SELECT tool_name, count(*), sum(resolved) FROM metrics_chains WHERE ${w.sql}${res} GROUP BY tool_name`,
        )
          .raw()
          .all(params) as [string, number, number][]) {
          total += n;
          resolved += r;
          const e = byTool.get(tool) ?? [0, 0];
          byTool.set(tool, [e[0] + n, e[1] + r]);
        }
        rows.push(
          ...all<ChainRow>(
            `SELECT * FROM metrics_chains WHERE ${w.sql}${res} ORDER BY first_ms DESC, run_id DESC LIMIT @lim`,
            { ...params, lim: opts.limit + opts.offset },
          ),
        );
      }
      rows.sort((a, b) => b.first_ms - a.first_ms || b.run_id - a.run_id);
      const page = rows.slice(opts.offset, opts.offset + opts.limit);
      const member = prepare(
        `SELECT ${CALL_COLUMNS} FROM calls INDEXED BY calls_chain_members
         WHERE run_id = ? AND chain = 1 ORDER BY started_ms, id`,
      );
      const members = page.flatMap((c) => member.all(c.run_id) as FactRow[]);
      return {
        total,
        resolved,
        byTool: [...byTool.entries()].map(([t, [n, r]]) => [t, n, r]),
        rows: page,
        members,
      };
    },
  };
}
