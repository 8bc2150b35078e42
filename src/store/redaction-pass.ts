/**
 * The rows a one-time pass redacts (issue 40): content stored before the server redacted it
 * (proxy messages, sessions' `initialize` facts, refused items on the ingest log), read in
 * pages by rowid and rewritten in place. Rewrites run with `secure_delete` on, so the old text
 * is zeroed in the file rather than left in free space, and the pass ends by rebuilding the
 * file and truncating the WAL, whose old frames still held it. src/ingest/redaction-pass.ts drives it.
 */
import { connectionOf } from './connection.js';
import type { ReadStore, Store } from './index.js';

const MARK_KEY = 'redaction_pass';
/** Bump to redact everything stored again (when the built-in rules learn much more). */
export const REDACTION_PASS_VERSION = 1;

/** One stored message body. */
export interface StoredMessage {
  id: number;
  body: string;
  truncated: boolean;
}

/** One stored session's `initialize` texts (JSON capabilities as text). */
export interface StoredSession {
  rowid: number;
  client_name: string | null;
  client_version: string | null;
  client_capabilities: string | null;
  server_name: string | null;
  server_version: string | null;
  server_capabilities: string | null;
  server_instructions: string | null;
}

/** One refused item's snapshot on the ingest log. */
export interface StoredRejection {
  id: number;
  item: string;
  truncated: boolean;
}

/** Whether this file's content was redacted by the current pass version. */
export function redactionPassDone(store: ReadStore): boolean {
  const row = connectionOf(store)
    .prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?')
    .get(MARK_KEY);
  return row !== undefined && Number(JSON.parse(row.value)) >= REDACTION_PASS_VERSION;
}

/**
 * Records the pass as done. When it rewrote anything, the file is rebuilt (`VACUUM`): b-tree
 * pages keep bytes of cells they held before a split in their unused space, which rewriting
 * rows never reaches — found by grepping the file (test/redact/stored-content.test.ts). Then
 * the WAL, whose old frames held the text too, is truncated. Both are best effort (a reader may
 * hold the file); the mark is written either way, so it runs once.
 */
export function finishRedactionPass(store: Store, rewrote: boolean): void {
  const db = connectionOf(store);
  db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(MARK_KEY, String(REDACTION_PASS_VERSION));
  try {
    if (rewrote) db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // Busy: the rows are redacted; the old bytes go with the next VACUUM or clear-all.
  }
}

/** Up to `limit` messages after id `after`. */
export function storedMessagesAfter(
  store: ReadStore,
  after: number,
  limit: number,
): StoredMessage[] {
  return connectionOf(store)
    .prepare<[number, number], { id: number; body: string; truncated: number }>(
      'SELECT id, body, truncated FROM proxy_messages WHERE id > ? ORDER BY id LIMIT ?',
    )
    .all(after, limit)
    .map((r) => ({ id: r.id, body: r.body, truncated: r.truncated === 1 }));
}

/** Up to `limit` sessions after rowid `after`. */
export function storedSessionsAfter(
  store: ReadStore,
  after: number,
  limit: number,
): StoredSession[] {
  return connectionOf(store)
    .prepare<[number, number], StoredSession>(
      `SELECT rowid, client_name, client_version, client_capabilities, server_name, server_version,
         server_capabilities, server_instructions
       FROM proxy_sessions WHERE rowid > ? ORDER BY rowid LIMIT ?`,
    )
    .all(after, limit);
}

/** Up to `limit` refused items after id `after`. */
export function storedRejectionsAfter(
  store: ReadStore,
  after: number,
  limit: number,
): StoredRejection[] {
  return connectionOf(store)
    .prepare<[number, number], { id: number; item: string; truncated: number }>(
      'SELECT id, item, truncated FROM rejections WHERE id > ? ORDER BY id LIMIT ?',
    )
    .all(after, limit)
    .map((r) => ({ id: r.id, item: r.item, truncated: r.truncated === 1 }));
}

/** Rewrites redacted rows in one transaction, zeroing the old text in the file. */
export function rewriteRedacted(
  store: Store,
  rows: { messages?: StoredMessage[]; sessions?: StoredSession[]; rejections?: StoredRejection[] },
): void {
  const db = connectionOf(store);
  const message = db.prepare('UPDATE proxy_messages SET body = ?, truncated = ? WHERE id = ?');
  const session = db.prepare(
    `UPDATE proxy_sessions SET client_name = @client_name, client_version = @client_version,
       client_capabilities = @client_capabilities, server_name = @server_name,
       server_version = @server_version, server_capabilities = @server_capabilities,
       server_instructions = @server_instructions
     WHERE rowid = @rowid`,
  );
  const rejection = db.prepare('UPDATE rejections SET item = ? WHERE id = ?');
  db.pragma('secure_delete = ON');
  try {
    db.transaction(() => {
      for (const m of rows.messages ?? []) message.run(m.body, m.truncated ? 1 : 0, m.id);
      for (const s of rows.sessions ?? []) session.run(s);
      for (const r of rows.rejections ?? []) rejection.run(r.item, r.id);
    })();
  } finally {
    db.pragma('secure_delete = OFF');
  }
}
