/**
 * Retention of the proxy's content (migration 006), in transactions of at most `chunkRows`
 * rows like every other step. Content goes with the calls it belongs to:
 *
 * - by age: messages, unanswered requests and `initialize` facts that arrived before the age
 *   cutoff (the facts only once their session has no call left);
 * - by the size cap: once the calls step has deleted calls to stay under `max_calls`, the
 *   content of sessions with no call left that arrived before the oldest call kept — the cap
 *   keeps the newest calls, and their sessions' content with them.
 */
import type Database from 'better-sqlite3';
import { hasTable } from '../has-table.js';
import type { TallyDeleted } from './totals.js';

/** The content steps of a pass; each returns the rows it deleted (fewer than chunkRows: done). */
export interface ContentSteps {
  /** Messages, unanswered requests and session facts that arrived before `cutoff`. */
  byAge(cutoff: number): number;
  /** Content of sessions with no call left that arrived before `before`. */
  orphans(before: number): number;
  /** When the oldest call still kept arrived; null when there are no calls. */
  oldestKeptCall(): number | null;
}

const SESSION_HAS_CALLS = `EXISTS (SELECT 1 FROM calls c INDEXED BY calls_by_session
  WHERE c.project_id = t.project_id AND c.session_id = t.session_id)`;

/**
 * Prepares the content steps for `db` (each adds what it deleted to the file's totals through
 * `tally`, in its transaction); null on a file without migration 006.
 */
export function createContentSteps(
  db: Database.Database,
  chunkRows: number,
  tally: TallyDeleted,
): ContentSteps | null {
  if (!hasTable(db, 'proxy_messages')) return null;
  const deleteWhere = (table: string, key: string, where: string) =>
    db.prepare<[number, number]>(
      `DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} t WHERE ${where} LIMIT ?)`,
    );
  const rowid = 'rowid';
  const agedMessages = deleteWhere('proxy_messages', rowid, 't.received_ms < ?');
  const agedUnanswered = deleteWhere('proxy_unanswered', rowid, 't.received_ms < ?');
  const agedSessions = deleteWhere(
    'proxy_sessions',
    rowid,
    `t.received_ms < ? AND NOT ${SESSION_HAS_CALLS}`,
  );
  const orphanWhere = `t.received_ms < ? AND NOT ${SESSION_HAS_CALLS}`;
  const orphanMessages = deleteWhere('proxy_messages', rowid, orphanWhere);
  const orphanUnanswered = deleteWhere('proxy_unanswered', rowid, orphanWhere);
  const orphanSessions = deleteWhere('proxy_sessions', rowid, orphanWhere);
  const oldestCall = db.prepare<[], { ms: number | null }>(
    'SELECT received_ms AS ms FROM calls ORDER BY id LIMIT 1',
  );

  /** Runs each statement once in one transaction, with what is left of the chunk. */
  const chunk = (statements: Database.Statement<[number, number]>[]) =>
    db.transaction((bound: number): number => {
      let n = 0;
      for (const s of statements) {
        if (n >= chunkRows) break;
        n += s.run(bound, chunkRows - n).changes;
      }
      tally('content', n);
      return n;
    });

  return {
    byAge: chunk([agedMessages, agedUnanswered, agedSessions]),
    orphans: chunk([orphanMessages, orphanUnanswered, orphanSessions]),
    // Row ids follow arrival, so the first call is the oldest kept one.
    oldestKeptCall: () => oldestCall.get()?.ms ?? null,
  };
}
