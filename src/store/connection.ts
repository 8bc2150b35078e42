/**
 * The store owns its connection: a {@link ReadStore} or {@link Store} carries no `db`. Code
 * inside src/store (query modules, retention, export), tests and benches reach the connection
 * through {@link connectionOf}; the ESLint layer rule keeps everyone else out of this module.
 */
import type Database from 'better-sqlite3';
import type { ReadStore } from './index.js';

const connections = new WeakMap<ReadStore, Database.Database>();

/** Records `db` as the connection behind `store` (openStore does this once). */
export function bindConnection<S extends ReadStore>(store: S, db: Database.Database): S {
  connections.set(store, db);
  return store;
}

/** The connection behind `store`: for store-internal modules, tests and benches only. */
export function connectionOf(store: ReadStore): Database.Database {
  const db = connections.get(store);
  if (!db) throw new Error(`no open connection for the store at ${store.path}`);
  return db;
}
