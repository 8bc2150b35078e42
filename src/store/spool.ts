/**
 * The ingest spool's table (migration 004): acknowledged requests waiting to be applied.
 *
 * An SDK's flush is acknowledged once its row here commits — one small insert per request
 * instead of the calls, their five indexes and the metrics rollups. Applying takes the oldest
 * rows, has the caller rebuild each request's batch (ingest validates the body again), writes
 * the batches as a synchronous request would, maintains the derived facts of all their calls
 * at once and deletes the rows — in one transaction, so a request is either still spooled or
 * wholly stored, never both and never half. When and how much to apply is src/ingest/spool.ts.
 */
import type Database from 'better-sqlite3';
import type { BatchRecord, BatchWriteResult } from './batch-record.js';
import type { FreshCall } from './derived.js';
import { createBatchInserts } from './write.js';

/** One acknowledged request, as spooled. */
export interface SpoolEntry {
  receivedMs: number;
  keySha256: string;
  keyPrefix: string;
  userAgent: string | null;
  /** Items in the batch (what the backlog is measured in). */
  payloads: number;
  /** The request body exactly as received. */
  body: Buffer;
}

/** A spooled request read back for applying. */
export interface SpooledRequest extends SpoolEntry {
  id: number;
}

/** One request applied: what it became and what the store wrote (for the live stream). */
export interface AppliedRequest {
  request: SpooledRequest;
  record: BatchRecord;
  written: BatchWriteResult;
}

/** The backlog. */
export interface SpoolBacklog {
  requests: number;
  payloads: number;
  /** When the oldest waiting request was received; `null` when none waits. */
  oldestMs: number | null;
}

/** The spool table's operations (on `Store.spool`). */
export interface SpoolTable {
  /**
   * Appends requests in one transaction: when it returns, they are durable. Returns their
   * spool ids, in order (what {@link SpooledRequest.id} will say when they are applied).
   */
  add(entries: readonly SpoolEntry[]): number[];
  /** Counts the backlog (a scan: call it at startup, then keep count in memory). */
  backlog(): SpoolBacklog;
  /**
   * Applies the oldest requests — at least one, then more while their items stay within
   * `maxPayloads` — in one transaction, and returns them in order. Nothing is applied when
   * the transaction fails (disk full, damaged pages): the rows stay for the next attempt.
   */
  apply(maxPayloads: number, toRecord: (request: SpooledRequest) => BatchRecord): AppliedRequest[];
}

interface SpoolRow {
  id: number;
  received_ms: number;
  key_sha256: string;
  key_prefix: string;
  user_agent: string | null;
  payloads: number;
  body: Buffer;
}

/** Where a slice's calls go: ids, and their storing with facts once the slice is read. */
export interface SliceCalls {
  nextId(): number;
  store(calls: readonly FreshCall[]): void;
}

/**
 * Prepares the spool statements for one connection. `calls.store` receives every call of the
 * slice after all its batches are written, and stores them with their facts in one pass.
 */
export function createSpoolTable(db: Database.Database, calls: SliceCalls): SpoolTable {
  const insert = db.prepare<[number, string, string, string | null, number, Buffer]>(
    `INSERT INTO spool (received_ms, key_sha256, key_prefix, user_agent, payloads, body)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const sizes = db.prepare<[], { id: number; payloads: number }>(
    'SELECT id, payloads FROM spool ORDER BY id',
  );
  const rowsThrough = db.prepare<[number], SpoolRow>(
    'SELECT * FROM spool WHERE id <= ? ORDER BY id',
  );
  const deleteThrough = db.prepare<[number]>('DELETE FROM spool WHERE id <= ?');
  const held: FreshCall[] = [];
  const write = createBatchInserts(db, {
    // Past the calls this slice holds, not yet in the table.
    nextId: () => (held.length > 0 ? held[held.length - 1]!.id + 1 : calls.nextId()),
    take: (fresh) => {
      for (const c of fresh) held.push(c);
    },
  });

  const addAll = db.transaction((entries: readonly SpoolEntry[]): number[] =>
    entries.map((e) =>
      Number(
        insert.run(e.receivedMs, e.keySha256, e.keyPrefix, e.userAgent, e.payloads, e.body)
          .lastInsertRowid,
      ),
    ),
  );

  const applyTx = db.transaction(
    (maxPayloads: number, toRecord: (r: SpooledRequest) => BatchRecord): AppliedRequest[] => {
      // Where the slice ends: read sizes only as far as needed (leaving the loop closes the
      // cursor, so the connection is free for the writes below).
      let last = 0;
      let total = 0;
      for (const h of sizes.iterate()) {
        if (last !== 0 && total + h.payloads > maxPayloads) break;
        total += h.payloads;
        last = h.id;
      }
      if (last === 0) return [];
      const applied = rowsThrough.all(last).map((row): AppliedRequest => {
        const request: SpooledRequest = {
          id: row.id,
          receivedMs: row.received_ms,
          keySha256: row.key_sha256,
          keyPrefix: row.key_prefix,
          userAgent: row.user_agent,
          payloads: row.payloads,
          body: row.body,
        };
        const record = toRecord(request);
        return { request, record, written: write(record) };
      });
      // The metrics engine sees the slice's calls together, so a session's calls that arrived
      // in several requests are linked in one pass.
      calls.store(held);
      deleteThrough.run(last);
      return applied;
    },
  );

  return {
    add: (entries) => (entries.length > 0 ? addAll(entries) : []),
    backlog: () => countBacklog(db),
    apply: (maxPayloads, toRecord) => {
      try {
        return applyTx(maxPayloads, toRecord);
      } finally {
        // Empty for the next slice, whether this one committed or rolled back.
        held.length = 0;
      }
    },
  };
}

/** Counts the spool: a scan, for startup and read-only opens (the server keeps count after). */
export function countBacklog(db: Database.Database): SpoolBacklog {
  const c = db
    .prepare<[], { requests: number; payloads: number; oldest: number | null }>(
      'SELECT count(*) AS requests, coalesce(sum(payloads), 0) AS payloads, min(received_ms) AS oldest FROM spool',
    )
    .get()!;
  return { requests: c.requests, payloads: c.payloads, oldestMs: c.oldest };
}
