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
 * The lock is named from the real path (symlinks resolved) and also from the file's inode, so
 * neither a symlink nor a hard link to a database in use gets a second writer — which matters
 * beyond the live view: SQLite names the WAL after the path, so two names for one file would
 * mean two WALs for one database.
 *
 * Readers (report, export) do not take it: SQLite's WAL lets them read while serve writes.
 */
import Database from 'better-sqlite3';
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { nativeBindingOptions } from './native-binding.js';

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
 * The path as the file system sees it: symlinks (the file's and its folders') resolved, so
 * `ln -s b.db link.db` names the same lock as `b.db`. A path that does not exist yet resolves
 * through its nearest existing folder; a dangling symlink through its target.
 */
export function realDbPath(dbPath: string, depth = 0): string {
  const absolute = resolve(dbPath);
  try {
    return realpathSync.native(absolute);
  } catch {
    // Not there yet (or a dangling link): resolve what exists and keep the rest as typed.
  }
  if (depth < 32) {
    try {
      if (lstatSync(absolute).isSymbolicLink())
        return realDbPath(resolve(dirname(absolute), readlinkSync(absolute)), depth + 1);
    } catch {
      // Nothing at this path: fall through to the folder.
    }
  }
  const parent = dirname(absolute);
  return parent === absolute ? absolute : join(realDbPath(parent, depth + 1), basename(absolute));
}

/**
 * The lock that follows the file rather than its name: a hard link (`ln b.db other/x.db`) is
 * the same inode under an unrelated path, so a lock keyed by path alone cannot see it. Lock
 * files live in one folder per user under the OS temp folder, named by device and inode.
 */
export function inodeLockPathFor(realPath: string): string {
  const { dev, ino } = statSync(realPath, { bigint: true });
  const uid = process.getuid?.() ?? 'user';
  return join(tmpdir(), `mcpulse-devtools-locks-${uid}`, `${dev}-${ino}.lock`);
}

/** Takes one SQLite-held lock file, or throws {@link InstanceLockedError} / SQLite's error. */
function lockFile(path: string, dbPath: string): InstanceLock {
  mkdirSync(dirname(path), { recursive: true });
  let db: Database.Database | undefined;
  try {
    db = new Database(path, nativeBindingOptions());
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

/** Creates an empty file at `path` unless one exists; an existing file is not opened for writing. */
function createIfMissing(path: string): void {
  try {
    closeSync(openSync(path, 'wx'));
  } catch (error) {
    // A write-protected database is the store's to report, with its own words.
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  }
}

/**
 * Takes the lock for `dbPath`, or throws {@link InstanceLockedError} at once (no waiting) when
 * another process holds it — under this name, a symlink to it, or a hard link to it. Two locks
 * are taken: one next to the real path (`devtools.db.lock`, which also covers a database not
 * created yet) and one keyed by the file's inode (which needs the file, so an empty one is
 * created: SQLite treats a zero-length file as an empty database). Other failures (a read-only
 * folder, say) are SQLite's or the file system's own errors, with their `code`, for the caller
 * to word.
 */
export function acquireInstanceLock(dbPath: string): InstanceLock {
  const realPath = realDbPath(dbPath);
  const byPath = lockFile(lockPathFor(realPath), dbPath);
  try {
    createIfMissing(realPath);
    const byInode = lockFile(inodeLockPathFor(realPath), dbPath);
    return {
      path: byPath.path,
      release() {
        byInode.release();
        byPath.release();
      },
    };
  } catch (error) {
    byPath.release();
    throw error;
  }
}

/**
 * The pid of the process serving `dbPath` (as the lock file records it), or null when none is
 * recorded. A read, no lock taken: for naming the devtools that holds a port.
 */
export const lockOwnerPid = (dbPath: string): number | null =>
  readOwnerPid(lockPathFor(realDbPath(dbPath)));
