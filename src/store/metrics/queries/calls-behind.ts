/** The calls behind a number: calls matching a filter and metric conditions, newest first. */
import type { CallFilter } from '../../../shared/rows.js';
import { CALL_COLUMNS, type FactRow } from './call-rows.js';
import type { QueryContext } from './context.js';
import { sessionNamer, type SessionName } from './session-names.js';
import { conditions, RAW, type Params } from './sql-parts.js';

/** Paged calls for a filter and metric conditions. */
export function callsBehindQueries(ctx: QueryContext) {
  const { projectsOf, all, prepare } = ctx;
  const nameOf = sessionNamer(ctx.db);
  return {
    /**
     * Calls matching the filter plus metric conditions (the calls behind a number), newest
     * first, keyset-paged by `before` (a call id).
     */
    calls(
      f: CallFilter,
      where: { sql: string; params: Params },
      page: { limit: number; before?: { ms: number; id: number } },
    ): FactRow[] {
      const out: FactRow[] = [];
      for (const p of projectsOf(f)) {
        const w = conditions(f, RAW);
        const before = page.before
          ? ' AND started_ms <= @bms AND (started_ms < @bms OR id < @bid)'
          : '';
        out.push(
          ...all<FactRow>(
            `SELECT ${CALL_COLUMNS} FROM calls WHERE ${w.sql}${where.sql ? ` AND ${where.sql}` : ''}${before}
             ORDER BY started_ms DESC, id DESC LIMIT @limit`,
            {
              ...w.params,
              ...where.params,
              projectId: p,
              limit: page.limit,
              ...(page.before ? { bms: page.before.ms, bid: page.before.id } : {}),
            },
          ),
        );
      }
      return out.sort((a, b) => b.started_ms - a.started_ms || b.id - a.id).slice(0, page.limit);
    },

    /** How many calls match the filter plus metric conditions (the exact total of a list). */
    countCalls(f: CallFilter, where: { sql: string; params: Params }): number {
      let n = 0;
      for (const p of projectsOf(f)) {
        const w = conditions(f, RAW);
        n += prepare(
          `SELECT count(*) FROM calls WHERE ${w.sql}${where.sql ? ` AND ${where.sql}` : ''}`,
        )
          .pluck()
          .get({ ...w.params, ...where.params, projectId: p }) as number;
      }
      return n;
    },

    /**
     * The naming facts of the sessions of a page of calls, keyed `project:session`: each
     * distinct session is looked up once (two indexed reads), so a page of 100 calls from a few
     * sessions costs a few lookups, and a list can show session names instead of ids.
     */
    sessionNamesOf(
      rows: readonly { project_id: number; session_id: string }[],
    ): Map<string, SessionName> {
      const names = new Map<string, SessionName>();
      for (const r of rows) {
        const key = `${r.project_id}:${r.session_id}`;
        if (!names.has(key)) names.set(key, nameOf(r.project_id, r.session_id));
      }
      return names;
    },
  };
}
