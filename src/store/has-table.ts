import type Database from 'better-sqlite3';

/** Whether table `name` exists: read-only opens do not migrate, so an older file may lack one. */
export const hasTable = (db: Database.Database, name: string): boolean =>
  db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(name) !==
  undefined;
