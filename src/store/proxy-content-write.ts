/**
 * Writes what the proxy posts to its local content route (migration 006): messages, the
 * session's `initialize` facts and its unanswered requests, in one transaction with the
 * project they belong to. A proxy retries a post it is unsure of, so every write is
 * idempotent: a message already stored under its (session, seq) is left as it is.
 */
import type Database from 'better-sqlite3';
import type { RejectedItem } from './batch-record.js';
import type { ProxyMessage, ProxySessionInfo, UnansweredRequest } from '../shared/proxy-content.js';
import { stringifyJson } from '../shared/deep-json.js';

/** One accepted post, ready to store. */
export interface ContentRecord {
  keySha256: string;
  keyPrefix: string;
  receivedMs: number;
  sessionId: string;
  session: ProxySessionInfo | null;
  messages: readonly ProxyMessage[];
  unanswered: readonly UnansweredRequest[];
  /** Messages refused one by one; when any, the post is written to the ingest log with them. */
  rejections: readonly RejectedItem[];
  bodyBytes: number;
  userAgent: string | null;
}

/** What one post changed. */
export interface ContentWriteResult {
  projectId: number;
  /** Messages newly stored. */
  stored: number;
  /** Messages already stored under the same seq (a retried post). */
  duplicates: number;
  /** The ingest-log row written for refused messages, or null when none were refused. */
  batchId: number | null;
  /** The rejection rows written, in the order of `rejections`. */
  rejectionIds: number[];
}

const jsonOrNull = (v: Record<string, unknown> | null): string | null =>
  v === null ? null : stringifyJson(v); // a hostile peer's capabilities may nest 10,000 deep

/** Prepares the statements once; the returned function writes one post atomically. */
export function createContentWriter(
  db: Database.Database,
): (record: ContentRecord) => ContentWriteResult {
  const upsertProject = db.prepare<[string, string, number, number], { id: number }>(
    `INSERT INTO projects (key_sha256, key_prefix, first_seen_ms, last_seen_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (key_sha256) DO UPDATE SET last_seen_ms = max(last_seen_ms, excluded.last_seen_ms)
     RETURNING id`,
  );
  // Bound by position, one row per relayed message: binding 13 values by name costs about a
  // third more than the insert itself (the same measurement as the chains' upsert).
  const insertMessage = db.prepare(
    `INSERT INTO proxy_messages (project_id, session_id, seq, direction, at_ms, method, rpc_id, kind,
       body, truncated, bytes, call_started_at, received_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (project_id, session_id, seq) DO NOTHING`,
  );
  // The latest post's facts win: a proxy that learns the server's side later posts again.
  const upsertSession = db.prepare(
    `INSERT INTO proxy_sessions (project_id, session_id, protocol_version, transport, client_name,
       client_version, client_capabilities, server_name, server_version, server_capabilities,
       server_instructions, received_ms)
     VALUES (@projectId, @sessionId, @protocolVersion, @transport, @clientName, @clientVersion,
       @clientCapabilities, @serverName, @serverVersion, @serverCapabilities, @serverInstructions,
       @receivedMs)
     ON CONFLICT (project_id, session_id) DO UPDATE SET
       protocol_version = excluded.protocol_version, transport = excluded.transport,
       client_name = excluded.client_name, client_version = excluded.client_version,
       client_capabilities = excluded.client_capabilities, server_name = excluded.server_name,
       server_version = excluded.server_version, server_capabilities = excluded.server_capabilities,
       server_instructions = excluded.server_instructions, received_ms = excluded.received_ms`,
  );
  const insertUnanswered = db.prepare(
    `INSERT INTO proxy_unanswered (project_id, session_id, rpc_id, method, tool_name, sent_at_ms, received_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, session_id, rpc_id) DO NOTHING`,
  );
  const insertBatch = db.prepare(
    `INSERT INTO batches (project_id, received_ms, status, accepted, rejected, body_bytes, error, user_agent)
     VALUES (?, ?, 202, ?, ?, ?, ?, ?)`,
  );
  const insertRejection = db.prepare(
    `INSERT INTO rejections (batch_id, project_id, received_ms, item_index, reason, item, truncated)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );

  return db.transaction((r: ContentRecord): ContentWriteResult => {
    const projectId = upsertProject.get(r.keySha256, r.keyPrefix, r.receivedMs, r.receivedMs)!.id;
    let stored = 0;
    for (const m of r.messages) {
      stored += insertMessage.run(
        projectId,
        r.sessionId,
        m.seq,
        m.direction,
        m.at_ms,
        m.method,
        m.rpc_id,
        m.kind,
        m.body,
        m.truncated ? 1 : 0,
        m.bytes,
        m.call_started_at ?? null,
        r.receivedMs,
      ).changes;
    }
    if (r.session) {
      const s = r.session;
      upsertSession.run({
        projectId,
        sessionId: r.sessionId,
        protocolVersion: s.protocol_version,
        transport: s.transport,
        clientName: s.client.name,
        clientVersion: s.client.version,
        clientCapabilities: jsonOrNull(s.client.capabilities),
        serverName: s.server.name,
        serverVersion: s.server.version,
        serverCapabilities: jsonOrNull(s.server.capabilities),
        serverInstructions: s.server.instructions,
        receivedMs: r.receivedMs,
      });
    }
    for (const u of r.unanswered) {
      insertUnanswered.run(
        projectId,
        r.sessionId,
        u.rpc_id,
        u.method,
        u.tool_name,
        u.sent_at_ms,
        r.receivedMs,
      );
    }
    let batchId: number | null = null;
    const rejectionIds: number[] = [];
    if (r.rejections.length > 0) {
      batchId = Number(
        insertBatch.run(
          projectId,
          r.receivedMs,
          r.messages.length,
          r.rejections.length,
          r.bodyBytes,
          `proxy content: ${r.rejections.length} message(s) refused`,
          r.userAgent,
        ).lastInsertRowid,
      );
      for (const x of r.rejections) {
        rejectionIds.push(
          Number(
            insertRejection.run(
              batchId,
              projectId,
              r.receivedMs,
              x.index,
              x.reason,
              x.item,
              x.truncated ? 1 : 0,
            ).lastInsertRowid,
          ),
        );
      }
    }
    return { projectId, stored, duplicates: r.messages.length - stored, batchId, rejectionIds };
  });
}
