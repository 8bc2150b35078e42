/**
 * The proxy's content in an export, only when asked (`export --content`, `/api/export?content=true`):
 * one line per post, each exactly the body of a `POST /v1/local/proxy` with `"type":
 * "proxy_content"` in front, so `import --content` replays it through the same validation and
 * a line can be POSTed as it is. Content goes after the telemetry lines.
 *
 * Which sessions: those whose calls the export carries, and for an export of a project or of
 * everything, also the sessions with content but no calls (resources, prompts only).
 */
import { connectionOf } from './connection.js';
import { callFilterSql } from './filter-sql.js';
import { hasTable } from './has-table.js';
import type { ReadStore } from './index.js';
import { createContentReader } from './proxy-content-read.js';
import { MAX_MESSAGES_PER_POST, type ProxyContent } from '../shared/proxy-content.js';
import type { CallFilter } from '../shared/rows.js';
import { stringifyJson } from '../shared/deep-json.js';

/** The `type` that marks a content line in a JSONL export. */
export const CONTENT_LINE_TYPE = 'proxy_content';

/** A line is cut after this many bytes of bodies, so no line grows past what one post may carry. */
const LINE_BODY_BYTES = 4 * 1024 * 1024;

/** What the content lines held, for the CLI's closing line. */
export interface ContentCounts {
  sessions: number;
  messages: number;
}

const narrows = (f: CallFilter): boolean =>
  f.from !== undefined || f.to !== undefined || f.tool !== undefined || f.client !== undefined;

/** The (project, session) pairs whose content goes with an export of `filter`. */
function contentSessions(
  store: ReadStore,
  filter: CallFilter,
): { project_id: number; session_id: string }[] {
  const db = connectionOf(store);
  const scope: string[] = [];
  if (filter.projectId !== undefined) scope.push('t.project_id = @projectId');
  if (filter.session !== undefined) scope.push('t.session_id = @session');
  const all = `SELECT project_id, session_id, received_ms FROM proxy_messages
               UNION ALL SELECT project_id, session_id, received_ms FROM proxy_sessions
               UNION ALL SELECT project_id, session_id, received_ms FROM proxy_unanswered`;
  let where = scope.length ? `WHERE ${scope.join(' AND ')}` : '';
  const params: Record<string, string | number> = {};
  if (filter.projectId !== undefined) params.projectId = filter.projectId;
  if (filter.session !== undefined) params.session = filter.session;
  if (narrows(filter)) {
    const calls = callFilterSql(filter, 'c');
    Object.assign(params, calls.params);
    where = `${where ? `${where} AND` : 'WHERE'} EXISTS (SELECT 1 FROM calls c ${calls.where} ${calls.where ? 'AND' : 'WHERE'} c.project_id = t.project_id AND c.session_id = t.session_id)`;
  }
  return db
    .prepare(
      `SELECT t.project_id, t.session_id FROM (${all}) t ${where}
        GROUP BY t.project_id, t.session_id ORDER BY min(t.received_ms), t.project_id, t.session_id`,
    )
    .all(params) as { project_id: number; session_id: string }[];
}

/** Yields the content lines of an export (each ending in `\n`). */
export function* exportContentLines(
  store: ReadStore,
  filter: CallFilter,
  counts: ContentCounts = { sessions: 0, messages: 0 },
): Generator<string> {
  const db = connectionOf(store);
  if (!hasTable(db, 'proxy_messages')) return;
  const content = createContentReader(db);
  for (const { project_id: projectId, session_id: session } of contentSessions(store, filter)) {
    counts.sessions++;
    const info = content.sessionInfo(projectId, session);
    const head: ProxyContent = { v: 1, session_id: session };
    if (info) head.session = info;
    const unanswered = content.unanswered(projectId, session);
    if (unanswered.length > 0) head.unanswered = unanswered;
    let line: ProxyContent = head;
    let bytes = 0;
    // Any depth: a session's capabilities may nest 10,000 deep (the export was cut off).
    const emit = (): string => `${stringifyJson({ type: CONTENT_LINE_TYPE, ...line })}\n`;
    let afterSeq: number | undefined;
    let wrote = false;
    for (;;) {
      const page = content.messages({ projectId, session, afterSeq, limit: 1000 });
      for (const { call_started_at, ...m } of page) {
        if (
          line.messages &&
          (line.messages.length >= MAX_MESSAGES_PER_POST || bytes + m.body.length > LINE_BODY_BYTES)
        ) {
          yield emit();
          wrote = true;
          line = { v: 1, session_id: session };
          bytes = 0;
        }
        (line.messages ??= []).push(call_started_at === null ? m : { ...m, call_started_at });
        bytes += m.body.length;
        counts.messages++;
      }
      if (page.length < 1000) break;
      afterSeq = page.at(-1)!.seq;
    }
    if (line.messages || !wrote) yield emit();
  }
}
