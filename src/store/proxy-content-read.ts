/**
 * Reads of the proxy's content (migration 006): a session's messages with filters and paging,
 * the messages that belong to one call, the session's `initialize` facts and its unanswered
 * requests. A read-only open of a file from before 006 has no such tables: every read answers
 * "nothing captured", never an error.
 */
import type Database from 'better-sqlite3';
import { hasTable } from './has-table.js';
import type { StoredSession } from './redaction-pass.js';
import { statementCache } from './statement-cache.js';
import type {
  MessageDirection,
  MessageKind,
  MessageView,
  UnansweredRequest,
} from '../shared/proxy-content.js';

/** Filters and paging for {@link ContentReader.messages}. */
export interface MessageQuery {
  projectId: number;
  session: string;
  kind?: MessageKind;
  method?: string;
  /** Substring searched for in bodies (case-sensitive, as typed: bodies are JSON text). */
  q?: string;
  /** Only messages after this seq (paging). */
  afterSeq?: number;
  limit?: number;
}

/** A stored message with the call it belongs to (for matching calls to their content). */
export interface StoredMessage extends MessageView {
  call_started_at: string | null;
}

/** One side's `initialize` facts, as stored. */
export interface PeerView {
  name: string | null;
  version: string | null;
  capabilities: Record<string, unknown> | null;
}

/** What the client and server said at `initialize`, as `GET /api/sessions/:id` shows it. */
export interface ProxySessionView {
  protocol_version: string | null;
  client: PeerView;
  server: PeerView & { instructions: string | null };
  transport: 'stdio' | 'http';
}

/** A stored unanswered request. */
export type UnansweredView = UnansweredRequest;

type RawMessage = Omit<StoredMessage, 'truncated'> & { truncated: number };

const toMessage = ({ truncated, ...m }: RawMessage): StoredMessage => ({
  ...m,
  direction: m.direction as MessageDirection,
  kind: m.kind as MessageKind,
  truncated: truncated === 1,
});

const parseJson = (text: string | null): Record<string, unknown> | null =>
  text === null ? null : (JSON.parse(text) as Record<string, unknown>);

/** The largest page of messages one read returns. */
export const MAX_MESSAGES_PAGE = 5000;

const MESSAGE_COLUMNS = `seq, direction, at_ms, method, rpc_id, kind, body, truncated, bytes, call_started_at`;

/** The content reads over one connection. */
export function createContentReader(db: Database.Database) {
  const prepare = statementCache(db);
  const present = (): boolean => hasTable(db, 'proxy_messages');

  return {
    /** Whether this file can hold content at all (migration 006 applied). */
    present,

    /**
     * The project a session's content is under: `projectId` when given and it has content
     * there, else the most recently active project that has content for that session. Seeks
     * the (project, session) indexes once per project: there are few projects, many messages.
     */
    sessionProject(session: string, projectId?: number): number | undefined {
      if (!present()) return undefined;
      return prepare(
        `SELECT p.id FROM projects p
          WHERE ${projectId !== undefined ? 'p.id = @projectId AND' : ''}
            (EXISTS (SELECT 1 FROM proxy_messages m INDEXED BY proxy_messages_by_seq
                      WHERE m.project_id = p.id AND m.session_id = @session)
             OR EXISTS (SELECT 1 FROM proxy_sessions s WHERE s.project_id = p.id AND s.session_id = @session)
             OR EXISTS (SELECT 1 FROM proxy_unanswered u WHERE u.project_id = p.id AND u.session_id = @session))
          ORDER BY p.last_seen_ms DESC, p.id DESC LIMIT 1`,
      )
        .pluck()
        .get({ session, projectId }) as number | undefined;
    },

    /** A session's messages in seq order, filtered and paged. */
    messages(query: MessageQuery): StoredMessage[] {
      if (!present()) return [];
      const parts = ['project_id = @projectId', 'session_id = @session'];
      if (query.kind !== undefined) parts.push('kind = @kind');
      if (query.method !== undefined) parts.push('method = @method');
      // instr, not LIKE: a search for `100%` or `a_b` means those characters.
      if (query.q !== undefined) parts.push('instr(body, @q) > 0');
      if (query.afterSeq !== undefined) parts.push('seq > @afterSeq');
      const limit = Math.max(1, Math.min(MAX_MESSAGES_PAGE, Math.floor(query.limit ?? 1000)));
      const rows = prepare(
        `SELECT ${MESSAGE_COLUMNS} FROM proxy_messages INDEXED BY proxy_messages_by_seq
         WHERE ${parts.join(' AND ')} ORDER BY seq LIMIT @limit`,
      ).all({ ...query, limit }) as RawMessage[];
      return rows.map(toMessage);
    },

    /** How many messages a session has (all of them, unfiltered). */
    messageCount(projectId: number, session: string): number {
      if (!present()) return 0;
      return prepare('SELECT count(*) FROM proxy_messages WHERE project_id = ? AND session_id = ?')
        .pluck()
        .get(projectId, session) as number;
    },

    /** The messages the proxy tied to the call that started at `startedAt`, in seq order. */
    callMessages(projectId: number, session: string, startedAt: string): StoredMessage[] {
      if (!present()) return [];
      const rows = prepare(
        `SELECT ${MESSAGE_COLUMNS} FROM proxy_messages INDEXED BY proxy_messages_by_call
         WHERE project_id = ? AND session_id = ? AND call_started_at = ? ORDER BY seq`,
      ).all(projectId, session, startedAt) as RawMessage[];
      return rows.map(toMessage);
    },

    /** What client and server said at `initialize`; null when the proxy sent none. */
    sessionInfo(projectId: number, session: string): ProxySessionView | null {
      if (!present()) return null;
      const row = prepare(
        `SELECT protocol_version, transport, client_name, client_version, client_capabilities,
                server_name, server_version, server_capabilities, server_instructions
           FROM proxy_sessions WHERE project_id = ? AND session_id = ?`,
      ).get(projectId, session) as
        | (Omit<StoredSession, 'rowid'> & {
            protocol_version: string | null;
            transport: 'stdio' | 'http';
          })
        | undefined;
      if (!row) return null;
      return {
        protocol_version: row.protocol_version,
        client: {
          name: row.client_name,
          version: row.client_version,
          capabilities: parseJson(row.client_capabilities),
        },
        server: {
          name: row.server_name,
          version: row.server_version,
          capabilities: parseJson(row.server_capabilities),
          instructions: row.server_instructions,
        },
        transport: row.transport,
      };
    },

    /**
     * When a session's content begins and ends (its messages, its `initialize` facts and its
     * unanswered requests) and the client it names — for a proxied session that has content but
     * no call yet (the client closed before any tool answered), so it still has a page.
     */
    sessionSpan(
      projectId: number,
      session: string,
    ): { first_ms: number; last_ms: number; client_name: string | null } | null {
      if (!present()) return null;
      const row = prepare(
        `SELECT min(t) AS first_ms, max(t) AS last_ms,
                (SELECT client_name FROM proxy_sessions WHERE project_id = @p AND session_id = @s) AS client_name
           FROM (SELECT at_ms AS t FROM proxy_messages INDEXED BY proxy_messages_by_seq
                  WHERE project_id = @p AND session_id = @s
                 UNION ALL SELECT received_ms FROM proxy_sessions WHERE project_id = @p AND session_id = @s
                 UNION ALL SELECT sent_at_ms FROM proxy_unanswered WHERE project_id = @p AND session_id = @s)`,
      ).get({ p: projectId, s: session }) as
        { first_ms: number | null; last_ms: number | null; client_name: string | null } | undefined;
      if (!row || row.first_ms === null || row.last_ms === null) return null;
      return { first_ms: row.first_ms, last_ms: row.last_ms, client_name: row.client_name };
    },

    /** Requests left unanswered at a clean close, in the order they were sent. */
    unanswered(projectId: number, session: string): UnansweredView[] {
      if (!present()) return [];
      return prepare(
        `SELECT rpc_id, method, tool_name, sent_at_ms FROM proxy_unanswered
          WHERE project_id = ? AND session_id = ? ORDER BY sent_at_ms, rpc_id`,
      ).all(projectId, session) as UnansweredView[];
    },
  };
}

export type ContentReader = ReturnType<typeof createContentReader>;
