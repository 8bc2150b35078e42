import type Database from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations/index.js';

/** Thrown when the file was written by a newer version than this one understands. */
export class DatabaseTooNewError extends Error {
  constructor(found: number, known: number) {
    super(
      `database schema version ${found} is newer than this build understands (${known}); ` +
        'upgrade mcpulse-devtools or point --db at another file',
    );
  }
}

/**
 * Runs every migration past the file's `user_version`, each in its own transaction, so a
 * crash mid-way leaves the file at the last complete version.
 */
export function migrate(
  db: Database.Database,
  migrations: readonly Migration[] = MIGRATIONS,
): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) throw new DatabaseTooNewError(current, latest);
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      m.run?.(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return db.pragma('user_version', { simple: true }) as number;
}
