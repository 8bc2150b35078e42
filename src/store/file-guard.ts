/**
 * Is the file we write still the database at our path? SQLite keeps writing to an open file
 * descriptor after the file is deleted or replaced (`rm devtools.db*`, a restore copied over it,
 * a hard link swapped in), and its WAL is named after the path — so the server would go on
 * acknowledging batches that no later start will ever see. The guard notices three things:
 *
 * - the path now names another file, or none (device and inode differ from those at open);
 * - the WAL beside it was deleted or replaced (its inode differs from the one recorded);
 * - the header's constant bytes (magic, page size, format versions, payload fractions) were
 *   overwritten — garbage written over the file, which SQLite may not read again for a while.
 *
 * Each check is a `stat` or two and a 24-byte read from a descriptor opened once (never closed
 * while SQLite holds the file: closing any descriptor of a file drops every POSIX lock this
 * process holds on it, SQLite's included). The answer is kept for {@link CACHE_MS}, so a flood
 * of acknowledgements pays for one check every few milliseconds. A problem, once seen, stays:
 * a database that vanished under a running server does not come back by itself.
 */
import { closeSync, openSync, readSync, statSync, type BigIntStats } from 'node:fs';

/** What to do once the file is lost: restart, which opens (or creates) the file at the path. */
export const FILE_LOST_FIX = 'restart mcpulse-devtools serve to open the database at that path';

/**
 * Thrown by the store's write door (a batch, proxy content, the spool) once the file is lost:
 * `database <problem>; <fix>` — the words ingest's 503 carries after "could not store the
 * batch: ", so a caller that forgot to check first still cannot write into a lost file.
 */
export class FileLostError extends Error {
  constructor(readonly problem: string) {
    super(`database ${problem}; ${FILE_LOST_FIX}`);
    this.name = 'FileLostError';
  }
}

/** How long one check's answer is reused. */
export const CACHE_MS = 5;

/** The header bytes that never change once a database exists (file format, section 1.3). */
const CONSTANT_HEADER_BYTES = 24;

/** Watches one database file; {@link problem} is null while all is well. */
export interface FileGuard {
  /** Why acknowledging into this file would lose data, or null. */
  problem(): string | null;
  /** Idempotent, like the store's own close. */
  close(): void;
}

const statOrNull = (path: string): BigIntStats | null => {
  try {
    return statSync(path, { bigint: true });
  } catch {
    return null;
  }
};

function readHeader(fd: number): Buffer | null {
  const header = Buffer.alloc(CONSTANT_HEADER_BYTES);
  try {
    return readSync(fd, header, 0, CONSTANT_HEADER_BYTES, 0) === CONSTANT_HEADER_BYTES
      ? header
      : null;
  } catch {
    return null;
  }
}

/**
 * Starts guarding the database at `path`, which must be open already (so its header and WAL
 * exist). `now` is for tests of the cache.
 */
export function createFileGuard(
  path: string,
  now: () => number = () => performance.now(),
): FileGuard {
  const opened = statSync(path, { bigint: true });
  const fd = openSync(path, 'r');
  const header = readHeader(fd);
  let wal = statOrNull(`${path}-wal`);
  let checkedMs = -Infinity;
  let found: string | null = null;
  let closed = false;

  function check(): string | null {
    const st = statOrNull(path);
    if (!st) return `${path} was deleted while serving`;
    if (st.dev !== opened.dev || st.ino !== opened.ino)
      return `${path} was replaced by another file while serving`;
    const walNow = statOrNull(`${path}-wal`);
    if (wal && (!walNow || walNow.dev !== wal.dev || walNow.ino !== wal.ino))
      return `${path}-wal (its write-ahead log) was deleted or replaced while serving`;
    wal ??= walNow;
    if (header) {
      const current = readHeader(fd);
      if (!current) return `${path} cannot be read any more`;
      if (!current.equals(header)) return `${path} was overwritten: its header is damaged`;
    }
    return null;
  }

  return {
    problem() {
      if (found) return found;
      const t = now();
      if (t - checkedMs < CACHE_MS) return null;
      checkedMs = t;
      found = check();
      return found;
    },
    close() {
      // Once only: a descriptor number closed twice may by then be another file's.
      if (closed) return;
      closed = true;
      closeSync(fd);
    },
  };
}
