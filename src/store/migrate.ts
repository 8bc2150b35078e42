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
 * What an upgrade of an existing file reports: once before the first pending migration, once
 * after the last. A migration may fill new rollups from every call (about a minute per ten
 * million calls), so whoever opens a big old file is told why the start takes a while.
 */
export type UpgradeStep =
  | { phase: 'start'; from: number; to: number; calls: number }
  | { phase: 'done'; from: number; to: number; ms: number };

/**
 * Runs every migration past the file's `user_version`, each in its own transaction, so a
 * crash mid-way leaves the file at the last complete version. `onUpgrade` hears about an
 * upgrade of a file that already had a schema, not the creation of a new one.
 */
export function migrate(
  db: Database.Database,
  migrations: readonly Migration[] = MIGRATIONS,
  onUpgrade?: (step: UpgradeStep) => void,
): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) throw new DatabaseTooNewError(current, latest);
  const upgrading = current > 0 && current < latest && onUpgrade !== undefined;
  const started = performance.now();
  if (upgrading) onUpgrade({ phase: 'start', from: current, to: latest, calls: callsIn(db) });
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      m.run?.(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  if (upgrading)
    onUpgrade({ phase: 'done', from: current, to: latest, ms: performance.now() - started });
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * About how many calls the file holds, from the ends of the rowid (one seek each, where
 * `count(*)` reads a whole index: seconds at ten million). Retention deletes the oldest calls,
 * so the ids in between are nearly all there.
 */
function callsIn(db: Database.Database): number {
  // Two statements: SQLite seeks for a lone min() or max(), but scans for both in one query.
  const end = (fn: 'min' | 'max') =>
    db.prepare(`SELECT ${fn}(id) FROM calls`).pluck().get() as number | null;
  const lo = end('min');
  const hi = end('max');
  return lo === null || hi === null ? 0 : hi - lo + 1;
}
