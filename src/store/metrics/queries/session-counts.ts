/** Session counts of a view: distinct sessions, the schema they loaded, sessions per client. */
import type { CallFilter } from '../../../shared/rows.js';
import type { QueryContext } from './context.js';
import { conditions, RAW, SCHEMA_OF_SESSION } from './sql-parts.js';

/** Distinct-session counts for a filter. */
export function sessionCountQueries(ctx: QueryContext) {
  const { prepare, projectsOf, narrowIndex } = ctx;
  return {
    /** Distinct sessions with at least one call matching the filter. */
    sessionCount(f: CallFilter): number {
      let n = 0;
      for (const p of projectsOf(f)) {
        const onlyClient =
          f.from === undefined &&
          f.to === undefined &&
          f.tool === undefined &&
          f.session === undefined;
        if (onlyClient) {
          const w = conditions(f, { client: 'client_name' });
          n +=
            (prepare(
              `SELECT count(*) FROM (SELECT DISTINCT session_id FROM metrics_sessions WHERE ${w.sql} AND calls > 0)`,
            )
              .pluck()
              .get({ ...w.params, projectId: p }) as number) ?? 0;
        } else {
          const w = conditions(f, RAW);
          n +=
            (prepare(
              `SELECT count(*) FROM (SELECT DISTINCT session_id FROM calls ${narrowIndex(p, f, true)} WHERE ${w.sql})`,
            )
              .pluck()
              .get({ ...w.params, projectId: p }) as number) ?? 0;
        }
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
        const plain =
          f.from === undefined &&
          f.to === undefined &&
          f.tool === undefined &&
          f.session === undefined;
        const w = plain ? conditions(f, { client: 'client_name' }) : conditions(f, RAW);
        const list = plain
          ? `SELECT DISTINCT session_id FROM metrics_sessions WHERE ${w.sql} AND calls > 0`
          : `SELECT DISTINCT session_id FROM calls ${narrowIndex(p, f, true)} WHERE ${w.sql}`;
        const r = prepare(
          `SELECT count(*) AS n, count(b) AS k, coalesce(sum(b), 0) AS b
           FROM (SELECT ${SCHEMA_OF_SESSION('@projectId', 'd.session_id')} AS b FROM (${list}) d)`,
        ).get({ ...w.params, projectId: p }) as { n: number; k: number; b: number };
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
        const onlyClient =
          f.from === undefined &&
          f.to === undefined &&
          f.tool === undefined &&
          f.session === undefined;
        const rows = onlyClient
          ? (() => {
              const w = conditions(f, { client: 'client_name' });
              return prepare(
                `SELECT client_name, count(*) FROM metrics_sessions WHERE ${w.sql} AND calls > 0 GROUP BY client_name`,
              )
                .raw()
                .all({ ...w.params, projectId: p }) as [string, number][];
            })()
          : (() => {
              const w = conditions(f, RAW);
              return prepare(
                `SELECT client_name, count(DISTINCT session_id) FROM calls ${narrowIndex(p, f, true)}
                 WHERE ${w.sql} GROUP BY client_name`,
              )
                .raw()
                .all({ ...w.params, projectId: p }) as [string, number][];
            })();
        for (const [c, n] of rows) out.set(c, (out.get(c) ?? 0) + n);
      }
      return out;
    },
  };
}
