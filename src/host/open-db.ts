/**
 * Opening the database for an entry point (the CLI commands, the Electron shell): SQLite's
 * failures worded as one line, an optional instance lock, and a write probe.
 */
import {
  InstanceLockedError,
  acquireInstanceLock,
  type InstanceLock,
} from '../store/instance-lock.js';
import { UnsafeFolderError } from '../store/private-files.js';
import {
  UnsafeDatabaseError,
  isWritable,
  openStore,
  probeWritable,
  type OpenStoreOptions,
  type ReadStore,
  type Store,
  type UpgradeStep,
} from '../store/index.js';

/** Options for {@link openDbForCli}. */
export interface OpenDbOptions extends OpenStoreOptions {
  /**
   * Refuse to open a database another mcpulse-devtools is serving from (serve, start, demo).
   * The lock is released by `store.close()`, or by the OS when the process dies.
   */
  instanceLock?: boolean;
  /**
   * Where to say, one line each, that an older file is being upgraded and when it is done
   * (`mcpulse-devtools: upgrading …`): a big file's upgrade takes a while, never in silence.
   */
  tell?: (line: string) => void;
}

/** The line for one step of an upgrade of the file at `path` (ends with a newline). */
export function upgradeLine(path: string, step: UpgradeStep): string {
  if (step.phase === 'start')
    return (
      `mcpulse-devtools: upgrading ${path} from schema ${step.from} to ${step.to} ` +
      `(about ${step.calls.toLocaleString('en-US')} calls; a big file takes a while — keep this running)…\n`
    );
  const seconds = (step.ms / 1000).toFixed(1);
  return `mcpulse-devtools: upgraded ${path} to schema ${step.to} in ${seconds} s\n`;
}

/** Words a SQLite/fs failure for `path` as the rest of one line. */
function explain(error: unknown): string {
  const e = error as { code?: string; message?: string };
  switch (e.code) {
    case 'SQLITE_NOTADB':
    case 'SQLITE_CORRUPT':
      return 'is not a readable SQLite database (corrupted?) — move it aside or pass --db with another path';
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return 'is locked by another process — close it, or pass --db with another path';
    case 'SQLITE_READONLY':
    case 'SQLITE_CANTOPEN':
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return `cannot be opened for writing (${e.message}) — check its permissions and its folder's, or pass --db with another path`;
    case 'SQLITE_FULL':
    case 'ENOSPC':
      return 'cannot be written: the disk is full — free some space, or pass --db with another path';
    default:
      return `could not be opened: ${e.message ?? String(error)}`;
  }
}

/**
 * Opens the database for a command, turning SQLite's failures into one line that says what
 * is wrong with which file and what to do — never a stack trace.
 */
export function openDbForCli(path: string, options: OpenDbOptions & { readonly: true }): ReadStore;
export function openDbForCli(path: string, options?: OpenDbOptions & { readonly?: false }): Store;
export function openDbForCli(path: string, options: OpenDbOptions = {}): ReadStore | Store {
  const { instanceLock, tell, ...storeOptions } = options;
  if (tell) storeOptions.onUpgrade ??= (step) => tell(upgradeLine(path, step));
  let lock: InstanceLock | undefined;
  try {
    if (instanceLock && !storeOptions.readonly && path !== ':memory:')
      lock = acquireInstanceLock(path);
    const store = openStore(path, storeOptions);
    try {
      if (isWritable(store)) probeWritable(store);
    } catch (error) {
      store.close();
      throw error;
    }
    if (!lock) return store;
    const held = lock;
    // The same object, so the store keeps its connection (src/store/connection.ts).
    const closeStore = store.close;
    store.close = () => {
      closeStore();
      held.release();
    };
    return store;
  } catch (error) {
    lock?.release();
    if (error instanceof InstanceLockedError || error instanceof UnsafeDatabaseError)
      throw new DatabaseOpenError(error.message);
    if (error instanceof UnsafeFolderError)
      throw new DatabaseOpenError(`cannot lock database ${path}: ${error.message}`);
    throw new DatabaseOpenError(`database ${path} ${explain(error)}`);
  }
}

/** A database that could not be opened; the message is the whole story. */
export class DatabaseOpenError extends Error {}
