/**
 * When derived facts are maintained: inside the ingest transaction (the default), or just after
 * it (`deferred`, what the long-running server uses).
 *
 * Deferring takes the metrics engine's work off the SDK's request: the request commits the raw
 * rows and is answered; a moment later one transaction maintains every call that arrived
 * meanwhile. Nothing can be lost or counted twice in between because the queue *is* the table:
 * a watermark in `settings` names the last call whose facts are maintained, and "pending" is
 * every call above it. A crash between the two transactions leaves calls above the watermark,
 * which the next open maintains before anything reads them; every API read flushes first, so
 * no reader ever sees a call without its facts.
 */
import type Database from 'better-sqlite3';
import type { DerivedMaintainer, FreshCall, StoredCallRow } from './derived.js';
import { COLS } from './metrics/maintain/rows.js';

const WATERMARK_KEY = 'derived_through_call_id';

/** After clear-all: no call is maintained, because there is no call. */
export function resetDerivedWatermark(db: Database.Database): void {
  db.prepare("UPDATE settings SET value = '0' WHERE key = ?").run(WATERMARK_KEY);
}

/**
 * After a full rebuild: every call's facts were just computed from the raw rows, so none is
 * pending. (Left behind, a watermark below calls written raw — the bench seeds ten million that
 * way — made the next write maintain all of them again in one slice, holding every row in
 * memory.)
 */
export function markAllDerived(db: Database.Database): void {
  db.prepare(
    `UPDATE settings SET value = CAST((SELECT coalesce(max(id), 0) FROM calls) AS TEXT)
     WHERE key = ?`,
  ).run(WATERMARK_KEY);
}

/** How long the server lets calls gather before it starts maintaining them. */
export const DEFERRED_FLUSH_MS = 25;

export interface DerivedQueue {
  /** The id the next new call gets (`max(id) + 1`). */
  nextId(): number;
  /**
   * Inside the write transaction: stores these new calls with their facts, after maintaining
   * whatever was pending (their neighbours must be maintained first).
   */
  storeNow(calls: readonly FreshCall[]): void;
  /** Deferred mode, inside the write transaction: stores them without facts, pending. */
  storeLater(calls: readonly FreshCall[]): void;
  /** Maintains every pending call in one transaction; returns how many there were. */
  flush(): number;
  /** Deferred mode, after a commit: flush soon (coalesced). */
  schedule(): void;
  /** Stops the timer (the caller flushes first if it wants to). */
  dispose(): void;
}

/** Builds the queue for one connection, recording the watermark if this file has none yet. */
export function createDerivedQueue(
  db: Database.Database,
  maintainer: DerivedMaintainer,
): DerivedQueue {
  // A database written before the watermark existed was maintained call by call, so all of
  // it is up to date: start the watermark at its last call.
  // (Only then is `calls` read: opening never touches call pages otherwise.)
  if (!db.prepare('SELECT 1 FROM settings WHERE key = ?').get(WATERMARK_KEY)) {
    db.prepare(
      `INSERT INTO settings (key, value)
       VALUES (?, CAST((SELECT coalesce(max(id), 0) FROM calls) AS TEXT))`,
    ).run(WATERMARK_KEY);
  }
  const readMark = db
    .prepare<[string], number>('SELECT CAST(value AS INTEGER) FROM settings WHERE key = ?')
    .pluck();
  const writeMark = db.prepare<[string, string]>('UPDATE settings SET value = ? WHERE key = ?');
  // The whole row, as the metrics engine reads it: the flush hands it over instead of the
  // engine reading every pending call a second time.
  const pending = db.prepare<[number, number], StoredCallRow>(
    `SELECT ${COLS} FROM calls WHERE id > ? ORDER BY id LIMIT ?`,
  );

  const maxId = db.prepare<[], number>('SELECT coalesce(max(id), 0) FROM calls').pluck();
  const setMark = (id: number): void => {
    writeMark.run(String(id), WATERMARK_KEY);
  };

  const flushTx = db.transaction((limit: number): number => {
    const rows = pending.all(readMark.get(WATERMARK_KEY) ?? 0, limit);
    if (rows.length === 0) return 0;
    maintainer.onRowsInserted(rows);
    setMark(rows[rows.length - 1]!.id);
    return rows.length;
  });

  let timer: NodeJS.Timeout | undefined;
  return {
    nextId: () => maxId.get()! + 1,
    storeNow(calls) {
      if (calls.length === 0) return;
      flushTx(-1);
      maintainer.storeCalls(calls);
      setMark(calls[calls.length - 1]!.id);
    },
    storeLater(calls) {
      maintainer.insertRaw(calls);
    },
    flush: () => {
      if (timer) {
        clearTimeout(timer);
        timer = undefined;
      }
      return flushTx(-1); // LIMIT -1: everything pending
    },
    schedule() {
      if (timer) return;
      // Everything pending goes in one transaction: the metrics engine reads a call's
      // neighbours as already maintained, so it must never see a pending call it was not
      // handed (chunking the backlog by id would break exactly that).
      const step = (): void => {
        timer = undefined;
        try {
          flushTx(-1);
        } catch {
          // A failed flush (disk full, say) leaves the calls pending; the next read or write
          // tries again, and reads surface the error there.
        }
      };
      timer = setTimeout(step, DEFERRED_FLUSH_MS);
      timer.unref();
    },
    dispose() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
