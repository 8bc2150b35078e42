/** The calls behind a number: calls matching a filter and metric conditions, newest first. */
import type { CallFilter } from '../../../shared/rows.js';
import { CALL_COLUMNS, type FactRow } from './call-rows.js';
import type { QueryContext } from './context.js';
import { isOneTool, toolCalls } from './tool-calls.js';
import { sessionNamer, type SessionName } from './session-names.js';
import type { CallConditions } from '../../../shared/call-conditions.js';
import { conditionSql } from './call-conditions.js';
import { conditions, RAW } from './sql-parts.js';

/**
 * One tool's newest calls, read from a window's start through the tool's sessions by hour
 * (`toolCalls`): without a window the tool's whole history is read and sorted by time (1.3 s
 * for the insights' 40 tools over ten million calls, before migration 009), and walking the
 * time index alone crosses every other tool's calls back to a rare tool's last one.
 */
const HOURS_BACK = {
  // Keyed by tool then hour: a tool's hours, newest first, without crossing other tools' rows.
  tool: `SELECT hour_ms, sum(n) FROM metrics_latency_hours
    WHERE project_id = @projectId AND tool_name = @tool AND hour_ms <= @last AND n > 0
    GROUP BY hour_ms ORDER BY hour_ms DESC`,
  toolAndClient: `SELECT hour_ms, sum(calls) FROM metrics_hour_stats INDEXED BY metrics_hour_stats_by_tool
    WHERE project_id = @projectId AND tool_name = @tool AND client_name = @client
      AND hour_ms <= @last AND calls > 0
    GROUP BY hour_ms ORDER BY hour_ms DESC`,
};

/** Paged calls for a filter and metric conditions. */
export function callsBehindQueries(ctx: QueryContext) {
  const { projectsOf, all, prepare, rawCalls } = ctx;
  const nameOf = sessionNamer(ctx.db);

  /**
   * The start of the latest hours that hold at least `n` of the filter's tool's calls up to
   * `lastMs` (the hourly rollups, newest hour first, so a busy tool reads one hour), or
   * null when all of them together hold fewer.
   */
  function windowStart(p: number, f: CallFilter, lastMs: number, n: number): number | null {
    const sql = f.client !== undefined ? HOURS_BACK.toolAndClient : HOURS_BACK.tool;
    let seen = 0;
    for (const [hour, calls] of prepare(sql)
      .raw()
      .iterate({
        projectId: p,
        tool: f.tool,
        last: lastMs,
        ...(f.client !== undefined ? { client: f.client } : {}),
      }) as IterableIterator<[number, number]>) {
      seen += calls;
      if (seen >= n) return hour;
    }
    return null;
  }

  return {
    /**
     * Calls matching the filter plus metric conditions (the calls behind a number), newest
     * first, keyset-paged by `before` (a call id).
     */
    calls(
      f: CallFilter,
      metric: CallConditions,
      page: { limit: number; before?: { ms: number; id: number } },
    ): FactRow[] {
      const where = conditionSql(metric);
      const out: FactRow[] = [];
      for (const p of projectsOf(f)) {
        const w = conditions(f, RAW);
        const before = page.before
          ? ' AND started_ms <= @bms AND (started_ms < @bms OR id < @bid)'
          : '';
        const params = {
          ...w.params,
          ...where.params,
          projectId: p,
          limit: page.limit,
          ...(page.before ? { bms: page.before.ms, bid: page.before.id } : {}),
        };
        // One tool's calls come through its sessions by hour, within the window or range.
        const oneTool = isOneTool(f);
        const source = (window: string): string => {
          if (!oneTool) return window ? 'calls INDEXED BY calls_by_time' : 'calls';
          const to = page.before ? '@bms + 1' : f.to !== undefined ? '@to' : undefined;
          const from = window ? '@wstart' : f.from !== undefined ? '@from' : undefined;
          return toolCalls({ from, to });
        };
        const sql = (window: string) =>
          `SELECT ${CALL_COLUMNS} FROM ${source(window)}
           WHERE ${w.sql}${where.sql ? ` AND ${where.sql}` : ''}${before}${window}
           ORDER BY started_ms DESC, id DESC LIMIT @limit`;
        // One tool's newest calls: from the start of the hours that hold enough of them. The
        // newest `limit` calls after that start are the newest of all. Fewer (metric
        // conditions, or a partial hour at the range's end): a window eight times as deep,
        // until it would hold the whole range, which is then read as one.
        const last = Math.min(page.before?.ms ?? Infinity, (f.to ?? Infinity) - 1);
        let rows: FactRow[] | null = null;
        for (let need = page.limit; oneTool && rows === null; need *= 8) {
          const start = windowStart(
            p,
            f,
            Number.isFinite(last) ? last : Number.MAX_SAFE_INTEGER,
            need,
          );
          if (start === null || start <= (f.from ?? -Infinity)) break;
          const windowed = all<FactRow>(sql(' AND started_ms >= @wstart'), {
            ...params,
            wstart: start,
          });
          if (windowed.length >= page.limit) rows = windowed;
        }
        out.push(...(rows ?? all<FactRow>(sql(''), params)));
      }
      return out.sort((a, b) => b.started_ms - a.started_ms || b.id - a.id).slice(0, page.limit);
    },

    /** How many calls match the filter plus metric conditions (the exact total of a list). */
    countCalls(f: CallFilter, metric: CallConditions): number {
      const where = conditionSql(metric);
      let n = 0;
      for (const p of projectsOf(f)) {
        const w = conditions(f, RAW);
        n += prepare(
          `SELECT count(*) FROM ${rawCalls(f)} WHERE ${w.sql}${where.sql ? ` AND ${where.sql}` : ''}`,
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
