/**
 * The database holds every tool call's arguments hash, session and client names: it is the
 * user's alone. Folders this code creates are 0700 and files 0600 (the mode is given at create
 * time; the umask can only take bits away). SQLite creates `-wal` and `-shm` with the database
 * file's own mode, so a 0600 database gives 0600 siblings. Files from before, still 0644, are
 * tightened when opened for writing — only if this user owns them (chmod would fail otherwise,
 * and someone else's file is not ours to change).
 */
import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import { dirname } from 'node:path';

/** Files and folders only their owner may read. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;

const uid = (): number | null => process.getuid?.() ?? null;

/** Creates an empty 0600 file at `path` unless something is there (never truncates). */
export function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', PRIVATE_FILE_MODE));
  } catch (error) {
    // A write-protected database is the store's to report, with its own words.
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  }
}

/** Takes group and other bits off `path` if this user owns it; a missing file is fine. */
export function tightenFile(path: string): void {
  try {
    const st = statSync(path);
    if ((st.mode & 0o077) !== 0 && st.uid === uid()) chmodSync(path, st.mode & 0o700);
  } catch {
    // Missing, or not ours: SQLite reports what matters when it opens the file.
  }
}

/** A folder that is not safe to keep a lock in; the message is the whole story. */
export class UnsafeFolderError extends Error {}

/**
 * Makes sure `dir` exists; folders created here are 0700. With `tighten`, `dir` must be a real
 * folder (not a symlink) owned by this user, and is made 0700 — for folders whose contents
 * another user must not be able to add or replace (the lock folder).
 */
export function ensurePrivateFolder(dir: string, options: { create: boolean; tighten: boolean }) {
  if (options.create) mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  if (!options.tighten) return;
  const st = lstatSync(dir);
  const me = uid();
  if (!st.isDirectory() || (me !== null && st.uid !== me))
    throw new UnsafeFolderError(
      `${dir} is not a folder owned by this user — remove it so mcpulse-devtools can recreate it`,
    );
  if ((st.mode & 0o077) !== 0) chmodSync(dir, PRIVATE_FOLDER_MODE);
}

/** A database file (or folder) another user controls; the message is the whole line. */
export class UnsafeDatabaseError extends Error {}

const statOrNull = (path: string): Stats | null => {
  try {
    return statSync(path);
  } catch {
    return null;
  }
};

const octal = (mode: number): string => `0${(mode & 0o7777).toString(8)}`;

/**
 * Refuses to serve a database another local account controls (issue 40): one in a folder that
 * group or others may write to (they could rename a file of theirs over it, or plant its `-wal`
 * before SQLite creates it, and have their rows served), or a database, `-wal` or `-shm` owned
 * by another user (who can read it, loosen it, or rewrite it at will; before, such a file made
 * world-writable was served and its `-wal`/`-shm` came out 0666). A file of this user's that is
 * merely too open is not refused: {@link tightenFile} makes it 0600. Call after the file exists.
 */
export function refuseUnsafeDatabase(path: string): void {
  const me = uid();
  if (me === null) return; // Windows: no POSIX owners or modes to judge.
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    // Not there: SQLite says so in its own words.
  }
  const folder = dirname(real);
  const dir = statOrNull(folder);
  if (dir && (dir.mode & 0o022) !== 0)
    throw new UnsafeDatabaseError(
      `database ${path} is in ${folder}, which other users may write to (mode ${octal(dir.mode)}): ` +
        `they could replace the database or plant its -wal — run chmod go-w ${folder}, or pass --db with a path in a folder of your own`,
    );
  for (const suffix of ['', '-wal', '-shm']) {
    const st = statOrNull(`${real}${suffix}`);
    if (!st || st.uid === me) continue;
    const what = suffix ? `: its ${suffix} file ${real}${suffix} is` : ' is';
    throw new UnsafeDatabaseError(
      `database ${path}${what} owned by another user (uid ${st.uid}, mode ${octal(st.mode)}), ` +
        `who can read and change everything in it — copy it to a file of your own, or pass --db with another path`,
    );
  }
}
