import type Database from 'better-sqlite3';
import { createAgreementReader } from './agreements.js';
import { createContentReader } from './proxy-content-read.js';
import { createToolErrorReader } from './tool-errors.js';
import { callFilterSql } from './filter-sql.js';
import { callsFor } from './metrics/queries/tool-calls.js';
import { hasTable } from './has-table.js';
import { createProjectResolver, projectRef } from './project-ref.js';
import { toolFingerprints } from './tool-fingerprints.js';
import { statementCache } from './statement-cache.js';
import type {
  BatchRow,
  CallFilter,
  CallRow,
  Page,
  ProjectRow,
  RejectionRow,
  StartupRow,
} from '../shared/rows.js';

const parseExtra = (text: unknown): Record<string, unknown> | null =>
  typeof text === 'string' ? (JSON.parse(text) as Record<string, unknown>) : null;

const clampLimit = (limit: number | undefined, max = 1000): number =>
  Math.max(1, Math.min(max, Math.floor(limit ?? 200)));

type RawCall = Omit<CallRow, 'is_empty' | 'extra'> & { is_empty: number; extra: string | null };

/** Turns a stored call row into its API shape. */
export function toCallRow(r: RawCall): CallRow {
  return { ...r, is_empty: r.is_empty === 1, extra: parseExtra(r.extra) };
}

const BATCH_COLUMNS = `b.id, b.project_id, p.key_prefix, substr(p.key_sha256, 1, 12) AS project_ref,
  b.received_ms, b.status, b.accepted, b.rejected, b.body_bytes, b.error, b.user_agent, b.method,
  b.path, b.hint, b.repeats, b.last_received_ms`;

/** Core reads: what was stored, exactly as it was sent. Metrics live in their own modules. */
export function createReader(db: Database.Database) {
  const prepare = statementCache(db);
  const projects = db.prepare<[number], ProjectRow>(
    `SELECT p.id, p.key_prefix, p.key_sha256, p.first_seen_ms, p.last_seen_ms,
            (SELECT count(*) FROM calls c WHERE c.project_id = p.id) AS calls,
            -- A session that sent only a startup (connected, listed, left) is a session too.
            (SELECT count(*) FROM (SELECT session_id FROM calls c WHERE c.project_id = p.id
                                   UNION SELECT session_id FROM startups s WHERE s.project_id = p.id)) AS sessions
     FROM projects p ORDER BY p.last_seen_ms DESC LIMIT ?`,
  );
  const sharedPrefixes = db.prepare<[number], { key_prefix: string; projects: number }>(
    `SELECT key_prefix, count(*) AS projects FROM projects
     GROUP BY key_prefix HAVING count(*) > 1 ORDER BY projects DESC, key_prefix LIMIT ?`,
  );
  const keysWithPrefix = db.prepare<[string, number], { key_sha256: string }>(
    'SELECT key_sha256 FROM projects WHERE key_prefix = ? ORDER BY last_seen_ms DESC LIMIT ?',
  );
  const resolveProject = createProjectResolver(db);
  const projectIdentity = db.prepare<[number], { key_sha256: string; key_prefix: string }>(
    'SELECT key_sha256, key_prefix FROM projects WHERE id = ?',
  );
  const toolsOf = db.prepare<[number], { name: string; schema_bytes: number }>(
    'SELECT name, schema_bytes FROM startup_tools WHERE startup_id = ? ORDER BY position',
  );
  const counts = db.prepare<[], TableCounts>(
    `SELECT (SELECT count(*) FROM projects) AS projects, (SELECT count(*) FROM calls) AS calls,
            (SELECT count(*) FROM startups) AS startups, (SELECT count(*) FROM batches) AS batches,
            (SELECT count(*) FROM rejections) AS rejections${
              // A read-only open of a file from before migration 005 has no agreements table.
              hasTable(db, 'agreements') ? ', (SELECT count(*) FROM agreements) AS agreements' : ''
            }`,
  );

  const withTools = (
    s: Omit<StartupRow, 'tools' | 'extra'> & { extra: string | null },
  ): StartupRow => ({
    ...s,
    extra: parseExtra(s.extra),
    tools: toolsOf.all(s.id),
  });

  return {
    /** The keys seen (by fingerprint), most recent first: all of them, or the first `limit`. */
    projects: (limit = -1): ProjectRow[] => projects.all(limit),

    /**
     * Key prefixes two or more projects share (the most shared first, at most `maxPrefixes`),
     * each with how many and the key hashes of up to `maxKeys` of them, most recent first.
     */
    sharedPrefixes: (maxPrefixes: number, maxKeys: number) =>
      sharedPrefixes.all(maxPrefixes).map((r) => ({
        ...r,
        keySha256s: keysWithPrefix.all(r.key_prefix, maxKeys).map((k) => k.key_sha256),
      })),

    /**
     * Resolves a `project` value — the key, the project's ref (key hash prefix), a row id, or a
     * key prefix only one project has — to a project id; throws `AmbiguousProjectError` when it
     * could mean two projects (src/store/project-ref.ts).
     */
    resolveProject,

    /** A project's ref and key-prefix label; `undefined` for an unknown id. */
    projectIdentity(id: number): { ref: string; key_prefix: string } | undefined {
      const row = projectIdentity.get(id);
      return row && { ref: projectRef(row.key_sha256), key_prefix: row.key_prefix };
    },

    /** Calls matching the filter in `started_at` order (arrival order breaks ties). */
    calls(filter: CallFilter, page: Page & { order?: 'asc' | 'desc' } = {}): CallRow[] {
      const { where, params } = callFilterSql(filter);
      const dir = page.order === 'desc' ? 'DESC' : 'ASC';
      const before = page.before !== undefined ? `${where ? 'AND' : 'WHERE'} id < @before` : '';
      const rows = prepare(
        `SELECT id, project_id, batch_id, session_id, client_name, tool_name, started_at, started_ms,
                  duration_ms, outcome, response_bytes, is_empty, args_hash, received_ms, extra
           FROM ${callsFor(filter)} ${where} ${before} ORDER BY started_ms ${dir}, id ${dir} LIMIT @limit`,
      ).all({
        ...params,
        before: page.before,
        limit: clampLimit(page.limit, 10_000),
      }) as RawCall[];
      return rows.map(toCallRow);
    },

    /** One call by id, as the calls list shows it; `undefined` when there is none. */
    call(id: number): CallRow | undefined {
      const row = prepare(
        `SELECT id, project_id, batch_id, session_id, client_name, tool_name, started_at, started_ms,
                duration_ms, outcome, response_bytes, is_empty, args_hash, received_ms, extra
           FROM calls WHERE id = ?`,
      ).get(id) as RawCall | undefined;
      return row && toCallRow(row);
    },

    /**
     * How many calls of the same tool in the same session started at the same `started_at`
     * before this one (by arrival): which of several requests tied to one start is this call's.
     */
    sameStartBefore(call: CallRow): number {
      return prepare(
        `SELECT count(*) FROM calls INDEXED BY calls_by_session
          WHERE project_id = ? AND session_id = ? AND started_ms = ? AND started_at = ?
            AND tool_name = ? AND id < ?`,
      )
        .pluck()
        .get(
          call.project_id,
          call.session_id,
          call.started_ms,
          call.started_at,
          call.tool_name,
          call.id,
        ) as number;
    },

    /** Startups, newest first, optionally for one project or session. */
    startups(filter: { projectId?: number; session?: string }, page: Page = {}): StartupRow[] {
      const parts: string[] = [];
      if (filter.projectId !== undefined) parts.push('project_id = @projectId');
      if (filter.session !== undefined) parts.push('session_id = @session');
      if (page.before !== undefined) parts.push('id < @before');
      const rows = prepare(
        `SELECT id, project_id, batch_id, session_id, client_name, received_ms, extra FROM startups
           ${parts.length ? `WHERE ${parts.join(' AND ')}` : ''} ORDER BY id DESC LIMIT @limit`,
      ).all({ ...filter, before: page.before, limit: clampLimit(page.limit) }) as (Omit<
        StartupRow,
        'tools' | 'extra'
      > & { extra: string | null })[];
      return rows.map(withTools);
    },

    /**
     * Ingest log: every request received, newest first. `misdirected` keeps only requests that
     * missed `/v1/ingest` (a wrong path or method), which belong to no project.
     */
    batches(filter: { projectId?: number; misdirected?: boolean }, page: Page = {}): BatchRow[] {
      const parts: string[] = [];
      if (filter.projectId !== undefined) parts.push('b.project_id = @projectId');
      if (filter.misdirected) parts.push('b.path IS NOT NULL');
      if (page.before !== undefined) parts.push('b.id < @before');
      return prepare(
        `SELECT ${BATCH_COLUMNS}
           FROM batches b LEFT JOIN projects p ON p.id = b.project_id
           ${parts.length ? `WHERE ${parts.join(' AND ')}` : ''} ORDER BY b.id DESC LIMIT @limit`,
      ).all({
        projectId: filter.projectId,
        before: page.before,
        limit: clampLimit(page.limit),
      }) as BatchRow[];
    },

    /** Every dropped item with production's reason, newest first. */
    rejections(filter: { projectId?: number; batchId?: number }, page: Page = {}): RejectionRow[] {
      const parts: string[] = [];
      if (filter.projectId !== undefined) parts.push('r.project_id = @projectId');
      if (filter.batchId !== undefined) parts.push('r.batch_id = @batchId');
      if (page.before !== undefined) parts.push('r.id < @before');
      const rows = prepare(
        `SELECT r.id, r.batch_id, r.project_id, p.key_prefix, substr(p.key_sha256, 1, 12) AS project_ref, r.received_ms, r.item_index, r.reason,
                  r.item, r.truncated
           FROM rejections r LEFT JOIN projects p ON p.id = r.project_id
           ${parts.length ? `WHERE ${parts.join(' AND ')}` : ''} ORDER BY r.id DESC LIMIT @limit`,
      ).all({ ...filter, before: page.before, limit: clampLimit(page.limit) }) as (Omit<
        RejectionRow,
        'truncated'
      > & { truncated: number })[];
      return rows.map((r) => ({ ...r, truncated: r.truncated === 1 }));
    },

    /** A tool's startup fingerprints from newer SDKs (src/store/tool-fingerprints.ts). */
    toolFingerprints: (projectId: number | undefined, tool: string) =>
      toolFingerprints(db, projectId, tool),

    /** Agreement verdicts (src/store/agreements.ts). */
    agreements: createAgreementReader(db),

    /** What the proxy captured: messages, `initialize` facts, unanswered requests (src/store/proxy-content-read.ts). */
    content: createContentReader(db),

    /** Failing calls with their captured answers, for grouping by error text (src/store/tool-errors.ts). */
    toolErrors: createToolErrorReader(db),

    /** Row counts per table, for the status panel. */
    counts: (): TableCounts => counts.get()!,
  };
}

export type Reader = ReturnType<typeof createReader>;

/** Row counts of the raw tables. */
export type TableCounts = Record<
  'projects' | 'calls' | 'startups' | 'batches' | 'rejections',
  number
>;
