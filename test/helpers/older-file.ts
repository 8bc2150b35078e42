/** A database stopped at an older schema version, for the test of the migration after it. */
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { rebuildSql } from '../../src/store/metrics/sql.js';

/** One call: session, client, tool, start, duration, outcome, response size, args hash. */
export type OlderCall = [string, string, string, number, number, string, number, string];

/**
 * An in-memory database migrated up to (not including) the migration named `name`, holding
 * project 1, batch 1 and `calls`, its derived facts and rollups filled as that version kept
 * them. Returns it with the migration's index in {@link MIGRATIONS}.
 */
export function olderFile(
  name: string,
  calls: readonly OlderCall[],
): { db: Database.Database; index: number } {
  // Looked up by name: the lead may renumber migrations at merge.
  const index = MIGRATIONS.findIndex((m) => m.name === name);
  if (index < 1) throw new Error(`no migration named ${name} after the first`);
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db, MIGRATIONS.slice(0, index));
  db.exec(`
    INSERT INTO projects (id, key_sha256, key_prefix, first_seen_ms, last_seen_ms) VALUES (1, 'h', 'k', 1, 1);
    INSERT INTO batches (id, project_id, received_ms, status, accepted, rejected, body_bytes) VALUES (1, 1, 1, 202, 1, 0, 1);`);
  const insert = db.prepare(
    `INSERT INTO calls (project_id, batch_id, session_id, client_name, tool_name, started_at, started_ms,
       duration_ms, outcome, response_bytes, is_empty, args_hash, received_ms)
     VALUES (1, 1, ?, ?, ?, 'x', ?, ?, ?, ?, 0, ?, 1)`,
  );
  for (const c of calls) insert.run(...c);
  db.exec(rebuildSql(undefined, MIGRATIONS[index - 1]!.version));
  return { db, index };
}

/**
 * An empty file upgraded through the migration named `name`, beside a new file created at that
 * same version: what a migration's "same as a new file" check compares.
 */
export function upgradedAndFresh(name: string): [Database.Database, Database.Database] {
  const { db, index } = olderFile(name, []);
  migrate(db, MIGRATIONS.slice(0, index + 1));
  const fresh = new Database(':memory:');
  migrate(fresh, MIGRATIONS.slice(0, index + 1));
  return [db, fresh];
}

/** The names of the indexes on `calls`, in order. */
export const callIndexNames = (db: Database.Database): unknown[] =>
  db
    .prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'calls' ORDER BY 1",
    )
    .pluck()
    .all();

/** What SQLite's plan for `sql` says, one line per step (every parameter bound to 0). */
export const queryPlan = (db: Database.Database, sql: string): string => {
  const named = Object.fromEntries((sql.match(/@\w+/g) ?? []).map((n) => [n.slice(1), 0]));
  const positional = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 0);
  const explain = db.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`);
  return (positional.length > 0 ? explain.all(...positional) : explain.all(named))
    .map((r) => r.detail)
    .join('\n');
};

/** Every row of each of `tables`, ordered by its first `keyColumns` columns. */
export const tableRows = (db: Database.Database, tables: readonly string[], keyColumns: number) =>
  Object.fromEntries(
    tables.map((t) => {
      const order = Array.from({ length: keyColumns }, (_, i) => i + 1).join(', ');
      return [t, db.prepare(`SELECT * FROM ${t} ORDER BY ${order}`).all()];
    }),
  );

/**
 * What every migration that adds derived tables checks at its end, on `db` just migrated to
 * `version`: a full rebuild at that version writes exactly the backfill's rows (`migrated`),
 * the tables are STRICT (`strictTable` refuses text in its `strictColumn`, `n` by default), and
 * deleting the projects takes every row of `tables` along.
 */
export function expectBackfillHolds(
  db: Database.Database,
  version: number,
  tables: readonly string[],
  keyColumns: number,
  migrated: ReturnType<typeof tableRows>,
  strictTable: string,
  strictColumn = 'n',
): void {
  db.exec(rebuildSql(undefined, version));
  expect(tableRows(db, tables, keyColumns)).toEqual(migrated);
  expect(() => db.exec(`UPDATE ${strictTable} SET ${strictColumn} = 'many'`)).toThrow(
    /cannot store TEXT/,
  );
  db.exec('DELETE FROM calls; DELETE FROM startups; DELETE FROM batches; DELETE FROM projects');
  for (const t of tables)
    expect(db.prepare(`SELECT count(*) AS n FROM ${t}`).get()).toEqual({ n: 0 });
}
