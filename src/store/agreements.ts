/**
 * Reads of agreement verdicts (migration 005): the verdicts themselves, newest first, and the
 * same verdicts grouped by the pair of tools and the field they were compared on.
 *
 * The shared filters apply as they would to calls: `from`/`to` bound `checked_ms`, `tool`
 * matches either side of the pair, `session` one session, and `client` the sessions in which
 * that client made calls (a verdict carries no client of its own).
 */
import type Database from 'better-sqlite3';
import { hasTable } from './has-table.js';
import { statementCache } from './statement-cache.js';
import type { AgreementRow, CallFilter, Page } from '../shared/rows.js';

/** One (field, tool_a, tool_b) with how its checks went. */
export interface AgreementPairRow {
  field: string;
  tool_a: string;
  tool_b: string;
  checks: number;
  agreed: number;
  diverged: number;
  first_checked_ms: number;
  last_checked_ms: number;
  /** Whether the latest check agreed. */
  last_agreed: boolean;
  /** The window of the latest check (`null` when not sent). */
  window_ms: number | null;
}

type RawAgreement = Omit<AgreementRow, 'agreed' | 'extra' | 'v' | 'type'> & {
  agreed: number;
  extra: string | null;
};

/** The `WHERE` clause for the shared filters over `agreements` aliased `a`; values bound. */
export function agreementFilterSql(filter: CallFilter): {
  where: string;
  params: Record<string, string | number>;
} {
  const parts: string[] = [];
  const params: Record<string, string | number> = {};
  if (filter.projectId !== undefined) {
    parts.push('a.project_id = @projectId');
    params.projectId = filter.projectId;
  }
  if (filter.from !== undefined) {
    parts.push('a.checked_ms >= @from');
    params.from = filter.from;
  }
  if (filter.to !== undefined) {
    parts.push('a.checked_ms < @to');
    params.to = filter.to;
  }
  if (filter.tool !== undefined) {
    parts.push('(a.tool_a = @tool OR a.tool_b = @tool)');
    params.tool = filter.tool;
  }
  if (filter.session !== undefined) {
    parts.push('a.session_id = @session');
    params.session = filter.session;
  }
  if (filter.client !== undefined) {
    parts.push(
      'EXISTS (SELECT 1 FROM calls c WHERE c.project_id = a.project_id AND c.session_id = a.session_id AND c.client_name = @client)',
    );
    params.client = filter.client;
  }
  return { where: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

const clamp = (limit: number | undefined): number =>
  Math.max(1, Math.min(1000, Math.floor(limit ?? 200)));

/** The agreement reads over one connection. */
export function createAgreementReader(db: Database.Database) {
  const prepare = statementCache(db);
  // A read-only open of a file from before migration 005: no verdicts, not an error.
  const present = (): boolean => hasTable(db, 'agreements');
  return {
    /** Verdicts matching the filter, newest first (keyset pagination on `id`). */
    list(filter: CallFilter, page: Page = {}): AgreementRow[] {
      if (!present()) return [];
      const { where, params } = agreementFilterSql(filter);
      const before = page.before !== undefined ? `${where ? 'AND' : 'WHERE'} a.id < @before` : '';
      const rows = prepare(
        `SELECT a.id, a.project_id, a.batch_id, a.session_id, a.field, a.tool_a, a.tool_b, a.agreed,
                a.checked_at, a.checked_ms, a.window_ms, a.received_ms, a.extra
           FROM agreements a ${where} ${before} ORDER BY a.id DESC LIMIT @limit`,
      ).all({ ...params, before: page.before, limit: clamp(page.limit) }) as RawAgreement[];
      return rows.map(({ agreed, extra, ...r }) => ({
        ...r,
        v: 1,
        type: 'agreement',
        agreed: agreed === 1,
        extra: extra ? (JSON.parse(extra) as Record<string, unknown>) : null,
      }));
    },

    /** Verdicts grouped by field and tool pair; pairs that ever diverged first. */
    pairs(filter: CallFilter): AgreementPairRow[] {
      if (!present()) return [];
      const { where, params } = agreementFilterSql(filter);
      const rows = prepare(
        `SELECT a.field, a.tool_a, a.tool_b, count(*) AS checks, sum(a.agreed) AS agreed,
                min(a.checked_ms) AS first_checked_ms, max(a.checked_ms) AS last_checked_ms,
                (SELECT l.agreed FROM agreements l WHERE l.project_id = a.project_id
                   AND l.field = a.field AND l.tool_a = a.tool_a AND l.tool_b = a.tool_b
                 ORDER BY l.checked_ms DESC, l.id DESC LIMIT 1) AS last_agreed,
                (SELECT l.window_ms FROM agreements l WHERE l.project_id = a.project_id
                   AND l.field = a.field AND l.tool_a = a.tool_a AND l.tool_b = a.tool_b
                 ORDER BY l.checked_ms DESC, l.id DESC LIMIT 1) AS window_ms
           FROM agreements a ${where}
           GROUP BY a.project_id, a.field, a.tool_a, a.tool_b`,
      ).all(params) as (Omit<AgreementPairRow, 'diverged' | 'last_agreed'> & {
        last_agreed: number;
      })[];
      // Across projects, one (field, pair) is one row: sum what the projects said.
      const merged = new Map<string, AgreementPairRow>();
      for (const r of rows) {
        const key = JSON.stringify([r.field, r.tool_a, r.tool_b]);
        const seen = merged.get(key);
        const row: AgreementPairRow = {
          ...r,
          diverged: r.checks - r.agreed,
          last_agreed: r.last_agreed === 1,
        };
        if (!seen) merged.set(key, row);
        else {
          const later = row.last_checked_ms > seen.last_checked_ms;
          merged.set(key, {
            ...seen,
            checks: seen.checks + row.checks,
            agreed: seen.agreed + row.agreed,
            diverged: seen.diverged + row.diverged,
            first_checked_ms: Math.min(seen.first_checked_ms, row.first_checked_ms),
            last_checked_ms: Math.max(seen.last_checked_ms, row.last_checked_ms),
            last_agreed: later ? row.last_agreed : seen.last_agreed,
            window_ms: later ? row.window_ms : seen.window_ms,
          });
        }
      }
      return [...merged.values()].sort(
        (x, y) =>
          y.diverged - x.diverged ||
          y.checks - x.checks ||
          (x.field + x.tool_a + x.tool_b < y.field + y.tool_a + y.tool_b ? -1 : 1),
      );
    },
  };
}

export type AgreementReader = ReturnType<typeof createAgreementReader>;
