/**
 * The two connection-local lists a forget works through: the ids being forgotten, and the
 * first call left of each trimmed session. Temp tables, so every step can join them in SQL.
 */
import type Database from 'better-sqlite3';

/** The ids being forgotten. */
export const FORGET = 'temp.metrics_forget';
/** The first call left of each cleanly trimmed session that had a `prev_tool`. */
export const FORGET_NEXT = 'temp.metrics_forget_next';

/** Creates both tables on this connection (before any statement naming them is prepared). */
export function createForgetTables(db: Database.Database): void {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS metrics_forget (id INTEGER PRIMARY KEY);
           CREATE TEMP TABLE IF NOT EXISTS metrics_forget_next (id INTEGER PRIMARY KEY)`);
}
