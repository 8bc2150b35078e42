/**
 * One writer process per database file, by any path. Two `mcpulse-devtools serve` on the same
 * file would both accept ingest and — through two names for one file (a hard link, a bind
 * mount) — keep two WALs for one database, so one instance's acknowledged payloads vanish at
 * the next checkpoint. The second one refuses to start.
 *
 * The lock follows the file, not its name: it is keyed by the database's **device and inode**
 * (the same through a symlink, a hard link, a bind mount or `/proc/<pid>/fd/<n>`), and lives in
 * one private folder per user, `<home>/.mcpulse-devtools/locks` (0700, checked to be a real
 * folder owned by this user). `<home>` is the account's home from the password database, not
 * `$HOME`, `$TMPDIR` or the working folder, so no environment setting moves it and no other
 * local user can create it first (an earlier design used `$TMPDIR/mcpulse-devtools-locks-<uid>`,
 * which anyone could pre-create to stop `serve` from starting).
 *
 * The lock itself is an OS file lock that SQLite takes and holds: a tiny SQLite file opened with
 * `locking_mode = EXCLUSIVE` and written once. The kernel drops it when the process dies, even
 * on `kill -9`, so there is never a stale lock to clean up and no pid-reuse guesswork. The
 * holder's pid is written to the header's `user_version`, which anyone can read with a plain
 * `read()` (advisory locks do not block reads), so the refusal says which process holds it.
 *
 * Readers (report, export) do not take it: SQLite's WAL lets them read while serve writes.
 */
import Database from 'better-sqlite3';
import {
  closeSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { nativeBindingOptions } from './native-binding.js';
import { createPrivateFile, ensurePrivateFolder } from './private-files.js';

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
  /** The database file's identity when the lock was taken (what the store keeps checking). */
  readonly dev: bigint;
  readonly ino: bigint;
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
 * The path as the file system sees it: symlinks (the file's and its folders') resolved. A path
 * that does not exist yet resolves through its nearest existing folder; a dangling symlink
 * through its target (so the file is created where SQLite would create it).
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
 * This user's lock folder: `<home>/.mcpulse-devtools/locks`, home from the password database
 * (`os.userInfo()`), not from the environment — unless the user has no entry there.
 */
export function lockFolder(): string {
  let home: string;
  try {
    home = userInfo().homedir;
  } catch {
    // A uid with no password entry (a container run as an arbitrary user): $HOME is all
    // there is. The folder checks still refuse one another user made.
    home = homedir();
  }
  return join(home, '.mcpulse-devtools', 'locks');
}

/** The lock file for the database at device `dev`, inode `ino`. */
export const inodeLockPathFor = (dev: bigint, ino: bigint): string =>
  join(lockFolder(), `${dev}-${ino}.lock`);

/** The inode at `path` now, or null when nothing is there. */
function inodeAt(path: string): bigint | null {
  try {
    return statSync(path, { bigint: true }).ino;
  } catch {
    return null;
  }
}

/**
 * Takes one SQLite-held lock file, or throws {@link InstanceLockedError} / SQLite's error.
 * A releasing holder deletes its file while still holding it, so a process that opened the
 * file just before could lock a file no longer at that name: after locking, the name must still
 * point at the file that was there, else it starts over.
 */
function lockFile(path: string, dbPath: string, attempt = 0): Database.Database {
  createPrivateFile(path);
  const before = inodeAt(path);
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
  if (before !== null && inodeAt(path) === before) return db;
  db.close();
  if (attempt >= 10) throw new Error(`could not take the lock ${path}: it keeps being replaced`);
  return lockFile(path, dbPath, attempt + 1);
}

/**
 * Takes the lock for `dbPath`, or throws {@link InstanceLockedError} at once (no waiting) when
 * another process holds it under any name. The database must be a file to have an inode, so a
 * missing one is created empty (0600; SQLite treats a zero-length file as an empty database).
 * Other failures (a read-only folder, say) are the file system's own errors, with their `code`,
 * for the caller to word.
 */
export function acquireInstanceLock(dbPath: string): InstanceLock {
  const realPath = realDbPath(dbPath);
  ensurePrivateFolder(dirname(realPath), { create: true, tighten: false });
  createPrivateFile(realPath);
  const { dev, ino } = statSync(realPath, { bigint: true });
  ensurePrivateFolder(lockFolder(), { create: true, tighten: true });
  const path = inodeLockPathFor(dev, ino);
  const held = lockFile(path, dbPath);
  let released = false;
  return {
    path,
    dev,
    ino,
    release() {
      if (released) return;
      released = true;
      // Deleted while still held (see lockFile), so lock files do not pile up per inode.
      try {
        unlinkSync(path);
      } catch {
        // Already gone: nothing to tidy.
      }
      held.close();
    },
  };
}

/**
 * The pid of the process serving `dbPath` (as its lock file records it), or null when none is
 * recorded or there is no such file. A read, no lock taken: for naming the devtools that holds
 * a port. The lock is keyed by the file's device and inode, so any name for it works.
 */
export function lockOwnerPid(dbPath: string): number | null {
  let st: { dev: bigint; ino: bigint };
  try {
    st = statSync(realDbPath(dbPath), { bigint: true });
  } catch {
    return null;
  }
  return readOwnerPid(inodeLockPathFor(st.dev, st.ino));
}
