import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';

describe('migration 005 (agreements)', () => {
  it('adds an empty STRICT agreements table to a v4 file and keeps its rows', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 4));
    db.exec(`
      INSERT INTO projects (id, key_sha256, key_prefix, first_seen_ms, last_seen_ms) VALUES (1, 'h', 'k', 1, 1);
      INSERT INTO batches (id, project_id, received_ms, status, accepted, rejected, body_bytes) VALUES (1, 1, 1, 202, 1, 0, 1);
    `);
    expect(migrate(db, MIGRATIONS.slice(0, 5))).toBe(5);
    expect(db.prepare('SELECT count(*) AS n FROM batches').get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT count(*) AS n FROM agreements').get()).toEqual({ n: 0 });
    const sql = db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'agreements'").pluck().get();
    expect(sql).toMatch(/\)\s*STRICT$/);

    const insert = db.prepare(
      `INSERT INTO agreements (project_id, batch_id, session_id, field, tool_a, tool_b, agreed,
         checked_at, checked_ms, window_ms, received_ms) VALUES (1, 1, 's', 'f', ?, ?, ?, 't', ?, ?, 1)`,
    );
    insert.run('a', 'b', 0, 5, 300000);
    insert.run('a', 'b', 1, 6, null); // a window the SDK did not say
    expect(() => insert.run('a', 'a', 1, 7, 1)).toThrow(/CHECK constraint failed/);
    expect(() => insert.run('a', 'b', 2, 7, 1)).toThrow(/CHECK constraint failed/);
    expect(() => insert.run('a', 'b', 1, 7, 0)).toThrow(/CHECK constraint failed/);
    expect(() => insert.run('a', 'b', 1, 'soon', 1)).toThrow(/cannot store TEXT value/);
    // The fingerprint index is partial: only tools with extra fields are in it.
    const plan = db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT startup_id FROM startup_tools WHERE name = 'a' AND extra IS NOT NULL ORDER BY startup_id DESC",
      )
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('startup_tools_with_extra');
    // Deleting the project takes its verdicts with it.
    db.exec('DELETE FROM projects');
    expect(db.prepare('SELECT count(*) AS n FROM agreements').get()).toEqual({ n: 0 });
  });
});
