/**
 * The store: the only code that touches better-sqlite3. One file, WAL, numbered migrations,
 * statements prepared once, one transaction per ingest request.
 */
import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import type { BatchRecord, BatchWriteResult } from './batch-record.js';
import {
  createWalGuard,
  startCheckpointer,
  WAL_HARD_BYTES,
  WAL_SOFT_BYTES,
} from './checkpointer.js';
import { createDerivedMaintainer } from './derived.js';
import { createDerivedQueue } from './derived-queue.js';
import { rebuildDirtyProjects } from './metrics/maintain.js';
import { forgetTails } from './metrics/maintain/tails.js';
import { migrate, type UpgradeStep } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';
import { createReader, type Reader } from './read.js';
import { countBacklog, createSpoolTable, type SpoolBacklog, type SpoolTable } from './spool.js';
import { createBatchWriter } from './write.js';
import {
  createContentWriter,
  type ContentRecord,
  type ContentWriteResult,
} from './proxy-content-write.js';
import { bindConnection, connectionOf } from './connection.js';
import { createFileGuard, FileLostError } from './file-guard.js';
import { nativeBindingOptions } from './native-binding.js';
import {
  createPrivateFile,
  ensurePrivateFolder,
  refuseUnsafeDatabase,
  tightenFile,
} from './private-files.js';

export type { BatchRecord, BatchWriteResult, RejectedItem } from './batch-record.js';
export type { ContentRecord, ContentWriteResult } from './proxy-content-write.js';
export type {
  AppliedRequest,
  SpoolBacklog,
  SpooledRequest,
  SpoolEntry,
  SpoolTable,
} from './spool.js';
export type * from '../shared/rows.js';
export { AmbiguousProjectError, UnknownProjectError, projectRef } from './project-ref.js';
export { FILE_LOST_FIX, FileLostError } from './file-guard.js';
export { UnsafeDatabaseError } from './private-files.js';
export { currentNativeBinding, probeNativeBinding, useNativeBinding } from './native-binding.js';
export type { UpgradeStep } from './migrate.js';
export {
  parseRedactionRules,
  redactionRulesOf,
  redactionSettingsText,
  saveRedactionRules,
} from './redaction-settings.js';
export {
  finishRedactionPass,
  redactionPassDone,
  rewriteRedacted,
  storedMessagesAfter,
  storedRejectionsAfter,
  storedSessionsAfter,
  type StoredMessage,
  type StoredRejection,
  type StoredSession,
} from './redaction-pass.js';

/**
 * A database opened read-only (reports, exports, the MCP server, `tail --last`): reads and
 * the spool's backlog, nothing that writes. The connection stays inside the store
 * (connection.ts).
 */
export interface ReadStore {
  readonly path: string;
  readonly read: Reader;
  /**
   * Brings every call's derived facts up to date and rebuilds projects whose calls were deleted
   * (a no-op unless `deferDerived` left some pending or retention deleted some, and always on a
   * read-only open). Readers of metrics call this first; returns how many calls it maintained.
   */
  flushDerived(): number;
  /** Requests acknowledged but not yet applied (src/store/spool.ts). */
  readonly spool: Pick<SpoolTable, 'backlog'>;
  close(): void;
}

/** A database opened for writing (the server, import): a {@link ReadStore} that also writes. */
export interface Store extends ReadStore {
  /** Writes one ingest request atomically. */
  writeBatch(record: BatchRecord): BatchWriteResult;
  /** Writes one post of proxy content atomically (idempotent per session and seq). */
  writeContent(record: ContentRecord): ContentWriteResult;
  /**
   * Counts `n` more identical refusals on an ingest-log row, the last at `lastMs`
   * (src/ingest/misdirected.ts collapses a flood into one row).
   */
  countRepeats(batchId: number, n: number, lastMs: number): void;
  readonly spool: SpoolTable;
  /**
   * Why writing here would lose data — the file deleted, replaced or overwritten since it was
   * opened (./file-guard.ts) — or null. Checked before acknowledging; cheap, cached a few ms.
   */
  fileProblem(): string | null;
}

/** Each connection's page cache, in KiB (an upper bound: pages are cached as they are read). */
export const PAGE_CACHE_KIB = 32 * 1024;

/** Is `store` open for writing? */
export const isWritable = (store: ReadStore): store is Store => 'writeBatch' in store;

/** Options for {@link openStore}. */
export interface OpenStoreOptions {
  /** Open read-only (reports, exports): no migrations, no writes. */
  readonly?: boolean;
  /**
   * Checkpoint the WAL from a worker thread instead of inside whichever commit crosses the
   * threshold — for the long-running server, where that commit is an SDK's request.
   */
  backgroundCheckpoints?: boolean;
  /**
   * Maintain derived facts just after each ingest transaction instead of inside it, so an
   * SDK's request waits only for its raw rows (see derived-queue.ts). For the server.
   */
  deferDerived?: boolean;
  /**
   * The WAL's bound with background checkpoints (src/store/checkpointer.ts): past `soft` the
   * writer restarts the log before its next write; past `hard` ingest waits for that or is
   * refused. Defaults 16 MiB and 64 MiB; tests use smaller ones.
   */
  walBytes?: { soft: number; hard: number };
  /** Told when opening upgrades a file made by an older version (./migrate.ts). */
  onUpgrade?: (step: UpgradeStep) => void;
}

/**
 * Opens (creating if needed) and migrates the database at `path`. `:memory:` works for tests
 * that do not care about the file. With `readonly: true` the handle is a {@link ReadStore}.
 */
export function openStore(path: string, options: OpenStoreOptions & { readonly: true }): ReadStore;
export function openStore(path: string, options?: OpenStoreOptions & { readonly?: false }): Store;
export function openStore(path: string, options?: OpenStoreOptions): ReadStore | Store;
export function openStore(path: string, options: OpenStoreOptions = {}): ReadStore | Store {
  const onDisk = path !== ':memory:' && path !== '';
  if (onDisk && !options.readonly) {
    // The user's data alone: new folders 0700, the file 0600 (SQLite gives -wal and -shm the
    // database's mode), and files from before tightened (./private-files.ts).
    ensurePrivateFolder(dirname(path), { create: true, tighten: false });
    createPrivateFile(path);
    // Someone else's file, or a folder others may write to, is refused; ours is tightened.
    refuseUnsafeDatabase(path);
    for (const suffix of ['', '-wal', '-shm']) tightenFile(`${path}${suffix}`);
  }
  const db = new Database(path, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
    ...nativeBindingOptions(),
  });
  db.pragma('busy_timeout = 5000');
  // SQLite's default page cache is 2 MiB; the indexes and rollups a slice of calls touches in
  // a file of a million calls are far more, so every slice read its pages back from the OS.
  // 32 MiB (filled only as pages are read) took ~15% off applying a call at 1M calls.
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode survives a killed process (not a power cut) and keeps commits cheap.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS, options.onUpgrade);
  }
  const walBytes = options.walBytes ?? { soft: WAL_SOFT_BYTES, hard: WAL_HARD_BYTES };
  const checkpointer =
    options.backgroundCheckpoints && !options.readonly ? startCheckpointer(path) : null;
  if (checkpointer) db.pragma('wal_autocheckpoint = 0');
  // Whenever SQLite restarts the WAL from its start, it cuts the file back to this size.
  if (!options.readonly) db.pragma(`journal_size_limit = ${walBytes.soft}`);
  if (options.readonly) {
    const reader: ReadStore = {
      path,
      read: createReader(db),
      flushDerived: () => 0,
      spool: { backlog: () => readonlyBacklog(db) },
      close: () => db.close(),
    };
    return bindConnection(reader, db);
  }
  const queue = createDerivedQueue(db, createDerivedMaintainer(db));
  // Whatever a crash left pending is maintained before anything reads it. If that fails (a
  // damaged page, a full disk), the store still opens: the calls stay pending, ingest and
  // reads report the fault as it happens, and the next flush tries again.
  try {
    queue.flush();
  } catch {
    // see above
  }
  const fileGuard = onDisk ? createFileGuard(path) : null;
  const deferred = options.deferDerived ?? false;
  const write = createBatchWriter(db, {
    nextId: queue.nextId,
    take: deferred ? queue.storeLater : queue.storeNow,
  });
  // Without the worker, SQLite's auto-checkpoint keeps the WAL small; with it, the writer
  // enforces the bound itself before every write transaction.
  const wal = checkpointer ? createWalGuard(db, path, walBytes) : null;
  const guard = (strict: boolean): void => {
    // The write door refuses a lost file itself (issue 40), so no caller can acknowledge into
    // one by forgetting to ask; the derived-facts flush (strict = false) may still run, so
    // reads keep answering with what is stored.
    if (strict) {
      const problem = fileGuard?.problem();
      if (problem) throw new FileLostError(problem);
    }
    wal?.beforeWrite(strict);
  };
  /**
   * Runs a write transaction; when it fails (and is rolled back), the metrics engine forgets
   * the session ends it remembered, which may describe rows that were never committed.
   */
  const undoneForgets = <T>(run: () => T): T => {
    try {
      return run();
    } catch (error) {
      forgetTails(db);
      throw error;
    }
  };
  const writeContent = createContentWriter(db);
  const dirtyCount = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM metrics_dirty');
  const countRepeats = db.prepare<[number, number, number]>(
    'UPDATE batches SET repeats = repeats + ?, last_received_ms = ? WHERE id = ?',
  );
  // A slice's calls are stored with their facts after whatever a lone request left pending.
  const spool = createSpoolTable(db, { nextId: queue.nextId, store: queue.storeNow });
  const store: Store = {
    path,
    read: createReader(db),
    writeBatch: (record) => {
      guard(true);
      const result = undoneForgets(() => write(record));
      if (deferred && result.callIds.length > 0) queue.schedule();
      return result;
    },
    writeContent: (record) => {
      guard(true);
      return writeContent(record);
    },
    countRepeats: (batchId, n, lastMs) => {
      guard(false);
      countRepeats.run(n, lastMs, batchId);
    },
    flushDerived: () => {
      guard(false);
      const maintained = undoneForgets(queue.flush);
      // Projects whose calls retention or a clear deleted are rebuilt here, on the writer, so
      // a read on its own read-only connection (src/server/read-pool/) finds them exact.
      if (dirtyCount.get()!.n > 0) undoneForgets(() => rebuildDirtyProjects(db));
      return maintained;
    },
    spool: {
      backlog: spool.backlog,
      add: (entries) => {
        guard(true);
        return spool.add(entries);
      },
      apply: (maxPayloads, toRecord) => {
        guard(true);
        return undoneForgets(() => spool.apply(maxPayloads, toRecord));
      },
    },
    fileProblem: () => fileGuard?.problem() ?? null,
    close: () => {
      queue.dispose();
      try {
        queue.flush();
      } catch {
        // Left above the watermark; the next open maintains them.
      }
      // The worker's connection closes first, so nothing holds the WAL when the writer
      // copies it back and cuts it to zero; closing the last connection then removes it.
      checkpointer?.stop();
      wal?.stop();
      try {
        if (checkpointer) db.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        // A failed final checkpoint leaves the WAL for the next open to apply.
      }
      db.close();
      // Only now: closing a descriptor of the file drops this process's locks on it.
      fileGuard?.close();
    },
  };
  return bindConnection(store, db);
}

/** A read-only open does not migrate: a file from before the spool has no backlog. */
function readonlyBacklog(db: Database.Database): SpoolBacklog {
  const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'spool'");
  return exists.get() ? countBacklog(db) : { requests: 0, payloads: 0, oldestMs: null };
}

/** The schema version of the file (`PRAGMA user_version`: the last migration applied). */
export function schemaVersion(store: ReadStore): number {
  return connectionOf(store).pragma('user_version', { simple: true }) as number;
}

/**
 * SQLite quietly opens a write-protected file read-only and only fails at the first write —
 * for serve that would be the first ingest. A write that changes nothing finds out now.
 */
export function probeWritable(store: Store): void {
  connectionOf(store).exec(
    'SAVEPOINT mcpulse_probe; DELETE FROM settings WHERE 0; RELEASE mcpulse_probe',
  );
}
