import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { plainChecks } from '../../src/store/migrations/010-plain-checks.js';
import { olderFile, upgradedAndFresh } from '../helpers/older-file.js';

const tableSql = (db: Database.Database) =>
  Object.fromEntries(
    db
      .prepare<[], { name: string; sql: string }>(
        "SELECT name, sql FROM sqlite_schema WHERE type = 'table' ORDER BY name",
      )
      .all()
      .map((t) => [t.name, t.sql]),
  );

/** Every constraint the migration rewrites, as a statement that breaks it. */
const BREAKERS: [string, string][] = [
  ['outcome', "UPDATE calls SET outcome = 'maybe'"],
  ['is_empty', 'UPDATE calls SET is_empty = 2'],
  ['fcs', 'UPDATE calls SET fcs = 2'],
  ['chain', 'UPDATE calls SET chain = 2'],
  [
    'direction',
    `INSERT INTO proxy_messages (project_id, session_id, seq, direction, at_ms, kind, body,
       truncated, bytes, received_ms) VALUES (1, 's', 0, 'both', 1, 'request', '{}', 0, 2, 1)`,
  ],
  [
    'kind',
    `INSERT INTO proxy_messages (project_id, session_id, seq, direction, at_ms, kind, body,
       truncated, bytes, received_ms) VALUES (1, 's', 0, 'client', 1, 'answer', '{}', 0, 2, 1)`,
  ],
  [
    'truncated',
    `INSERT INTO proxy_messages (project_id, session_id, seq, direction, at_ms, kind, body,
       truncated, bytes, received_ms) VALUES (1, 's', 0, 'client', 1, 'request', '{}', 2, 2, 1)`,
  ],
  [
    'transport',
    `INSERT INTO proxy_sessions (project_id, session_id, transport, received_ms)
     VALUES (1, 's', 'ws', 1)`,
  ],
];

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('migration plain-checks', () => {
  it('writes IN-list checks as comparisons and leaves every other constraint alone', () => {
    expect(plainChecks("a TEXT CHECK (outcome IN ('ok', 'bad_args')), b CHECK (x IN (0, 1))")).toBe(
      "a TEXT CHECK (outcome = 'ok' OR outcome = 'bad_args'), b CHECK (x = 0 OR x = 1)",
    );
    const untouched = 'CHECK (link BETWEEN 0 AND 3), CHECK (window_ms IS NULL OR window_ms > 0)';
    expect(plainChecks(untouched)).toBe(untouched);
    const once = plainChecks("CHECK (kind IN ('request', 'result', 'error', 'notification'))");
    expect(plainChecks(once)).toBe(once);
  });

  it('keeps the rows and the rules, in the migrating connection and in one already open', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpulse-mig10-'));
    dirs.push(dir);
    const path = join(dir, 'devtools.db');
    const { db: memory, index } = olderFile('plain-checks', [
      ['s1', 'cursor', 'search', 1_000, 12, 'ok', 10, 'aaaaaaaaaaaa'],
      ['s1', 'cursor', 'search', 2_000, 15, 'tool_error', 0, 'aaaaaaaaaaaa'],
    ]);
    // The same older file on disk, with a second connection that has read its schema.
    memory.exec(`VACUUM INTO '${path}'`);
    memory.close();
    const db = new Database(path);
    db.pragma('foreign_keys = ON');
    const other = new Database(path);
    const before = db.prepare('SELECT * FROM calls ORDER BY id').all();
    expect(tableSql(db)['calls']).toMatch(/CHECK \(outcome IN \(/);
    for (const [, breaker] of BREAKERS) expect(() => other.exec(breaker)).toThrow(/CHECK/);

    expect(migrate(db, MIGRATIONS.slice(0, index + 1))).toBe(MIGRATIONS[index]!.version);

    const after = tableSql(db);
    for (const [name, sql] of Object.entries(after))
      expect(sql, name).not.toMatch(/CHECK \(\w+ IN \(/);
    expect(after['calls']).toContain(
      "CHECK (outcome = 'ok' OR outcome = 'bad_args' OR outcome = 'tool_error' OR outcome = 'crashed')",
    );
    expect(db.prepare('SELECT * FROM calls ORDER BY id').all()).toEqual(before);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    // Both connections enforce every rule, by its new text (SQLite names the failed check).
    for (const conn of [db, other])
      for (const [column, breaker] of BREAKERS)
        expect(() => conn.exec(breaker), column).toThrow(
          new RegExp(`CHECK constraint failed: ${column} = `),
        );
    other.close();
    db.close();
  });

  it('gives a new file the same tables as an upgraded one', () => {
    const [upgraded, fresh] = upgradedAndFresh('plain-checks');
    expect(tableSql(fresh)).toEqual(tableSql(upgraded));
  });
});
