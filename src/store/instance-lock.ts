/**
 * One writer process per database file. Two `mcpulse-devtools serve` on the same file would
 * both accept ingest, interleave retention passes and fight over the dashboard's live view, so
 * the second one refuses to start.
 *
 * The lock is an OS file lock that SQLite itself takes and holds: a tiny SQLite file next to
 * the database (`devtools.db.lock`) opened with `locking_mode = EXCLUSIVE` and written once.
 * From then on the connection keeps an exclusive lock until it closes — and the kernel drops
 * it when the process dies, even on `kill -9`, so there is never a stale lock to clean up and
 * no pid-reuse guesswork. The holder's pid is written to the file header's `user_version`
 * field, which anyone can read with a plain `read()` (advisory locks do not block reads), so
 * the refusal can say which process holds it.
 *
 * Readers (report, export) do not take it: SQLite's WAL lets them read while serve writes.
 */
import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';

/** The lock file for a database path. */
export const lockPathFor = (dbPath: string): string => `${dbPath}.lock`;

/** Another process already holds the lock. */
export class InstanceLockedError extends Error {
  constructor(
    readonly dbPath: string,
    readonly ownerPid: number | null,
  ) {
    super(
      `database ${dbPath} is in use by another mcpulse-devtools` +
        (ownerPid ? ` (pid ${ownerPid})` : '') +
        ' — stop that one, or pass --db with another path',
    );
  }
}

/** A held lock; {@link release} is idempotent. */
export interface InstanceLock {
  readonly path: string;
  release(): void;
}

/** Offset of `user_version` in the 100-byte SQLite header (big-endian u32). */
const USER_VERSION_OFFSET = 60;

/** Reads the pid the current holder wrote, or null if the file is empty or unreadable. */
function readOwnerPid(lockPath: string): number | null {
  let fd: number | undefined;
  try {
    fd = openSync(lockPath, 'r');
    const header = Buffer.alloc(100);
    if (readSync(fd, header, 0, 100, 0) < 100) return null;
    const pid = header.readUInt32BE(USER_VERSION_OFFSET);
    return pid > 0 ? pid : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const isBusy = (error: unknown): boolean => {
  const code = (error as { code?: string }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
};

/**
 * Takes the lock for `dbPath`, or throws {@link InstanceLockedError} at once (no waiting) when
 * another process holds it. Other failures (a read-only folder, say) are SQLite's own errors,
 * with their `code`, for the caller to word.
 */
export function acquireInstanceLock(dbPath: string): InstanceLock {
  const path = lockPathFor(dbPath);
  mkdirSync(dirname(path), { recursive: true });
  let db: Database.Database | undefined;
  try {
    db = new Database(path);
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    // No journal: the file holds nothing worth protecting, only the lock and the pid.
    db.pragma('journal_mode = OFF');
    // The first write in EXCLUSIVE mode takes the exclusive lock and keeps it until close.
    db.pragma(`user_version = ${process.pid}`);
  } catch (error) {
    db?.close();
    if (isBusy(error)) throw new InstanceLockedError(dbPath, readOwnerPid(path));
    throw error;
  }
  const held = db;
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      // The file stays: deleting a lock file races with a process that has just opened it.
      held.close();
    },
  };
}
