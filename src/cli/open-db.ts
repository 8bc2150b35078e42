import { openStore, type OpenStoreOptions, type Store } from '../store/index.js';

/**
 * Opens the database for a command, turning SQLite's failures into one line that says what
 * is wrong with which file and what to do — never a stack trace.
 */
export function openDbForCli(path: string, options: OpenStoreOptions = {}): Store {
  try {
    return openStore(path, options);
  } catch (error) {
    const e = error as { code?: string; message?: string };
    const why =
      e.code === 'SQLITE_NOTADB' || e.code === 'SQLITE_CORRUPT'
        ? 'is not a readable SQLite database (corrupted?) — move it aside or pass --db with another path'
        : e.code === 'SQLITE_BUSY' || e.code === 'SQLITE_LOCKED'
          ? 'is locked by another process — close it, or pass --db with another path'
          : e.code === 'SQLITE_READONLY' || e.code === 'SQLITE_CANTOPEN' || e.code === 'EACCES'
            ? `cannot be opened for writing (${e.message}) — check its permissions, or pass --db with another path`
            : `could not be opened: ${e.message ?? String(error)}`;
    throw new DatabaseOpenError(`database ${path} ${why}`);
  }
}

/** A database that could not be opened; the message is the whole story. */
export class DatabaseOpenError extends Error {}
