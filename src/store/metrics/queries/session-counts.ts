/** Session counts of a view: distinct sessions, the schema they loaded, sessions per client. */
import { splitByHours } from '../../../metrics/time.js';
import type { CallFilter } from '../../../shared/rows.js';
import type { QueryContext } from './context.js';
import { conditions, RAW, SCHEMA_OF_SESSION, type Params } from './sql-parts.js';

/**
 * `(session_id, client_name)` rows (repeats allowed) of the sessions with calls in a time
 * range without tool or session filter: the hourly session rollup for the range's whole hours,
 * raw calls only for its partial hours. Null when the view needs the raw calls throughout.
 */
function rangedSessions(f: CallFilter): { sql: string; params: Params } | null {
  if (f.tool !== undefined || f.session !== undefined) return null;
  if (f.from === undefined && f.to === undefined) return null;
  const { whole, partial } = splitByHours({ from: f.from, to: f.to });
  if (!whole) return null;
  const client = f.client !== undefined ? 'AND client_name = @client' : '';
  const params: Params = { hf: whole.from ?? -Number.MAX_SAFE_INTEGER };
  params.ht = whole.to ?? Number.MAX_SAFE_INTEGER;
  if (f.client !== undefined) params.client = f.client;
  const parts = [
    `SELECT session_id, client_name FROM metrics_session_hours
     WHERE project_id = @projectId AND hour_ms >= @hf AND hour_ms < @ht AND calls > 0 ${client}`,
  ];
  partial.forEach((e, i) => {
    params[`pf${i}`] = e.from ?? -Number.MAX_SAFE_INTEGER;
    params[`pt${i}`] = e.to ?? Number.MAX_SAFE_INTEGER;
    parts.push(
      `SELECT session_id, client_name FROM calls INDEXED BY calls_by_time
       WHERE project_id = @projectId AND started_ms >= @pf${i} AND started_ms < @pt${i} ${client}`,
    );
  });
  return { sql: parts.join(' UNION ALL '), params };
}

/** Distinct-session counts for a filter. */
export function sessionCountQueries(ctx: QueryContext) {
  const { prepare, projectsOf, narrowIndex } = ctx;
  return {
    /** Distinct sessions with at least one call matching the filter. */
    sessionCount(f: CallFilter): number {
      let n = 0;
      const ranged = rangedSessions(f);
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
        } else if (ranged) {
          n +=
            (prepare(`SELECT count(DISTINCT session_id) FROM (${ranged.sql})`)
              .pluck()
              .get({ ...ranged.params, projectId: p }) as number) ?? 0;
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
        const ranged = rangedSessions(f);
        const w = plain
          ? conditions(f, { client: 'client_name' })
          : ranged
            ? { sql: '', params: ranged.params }
            : conditions(f, RAW);
        const list = plain
          ? `SELECT DISTINCT session_id FROM metrics_sessions WHERE ${w.sql} AND calls > 0`
          : ranged
            ? `SELECT DISTINCT session_id FROM (${ranged.sql})`
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
      const ranged = rangedSessions(f);
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
          : ranged
            ? (prepare(
                `SELECT client_name, count(DISTINCT session_id) FROM (${ranged.sql}) GROUP BY client_name`,
              )
                .raw()
                .all({ ...ranged.params, projectId: p }) as [string, number][])
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
