import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseTooNewError, migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { openStore } from '../../src/store/index.js';
import { connectionOf } from '../../src/store/connection.js';

const dirs: string[] = [];
const tempDb = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpulse-mig-'));
  dirs.push(dir);
  return join(dir, 'devtools.db');
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('migrations', () => {
  it('are numbered 1, 2, 3… with no gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it('001 creates STRICT tables and records user_version', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.slice(0, 1));
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    const tables = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table'").all() as {
      name: string;
      sql: string;
    }[];
    expect(tables.map((t) => t.name).sort()).toEqual([
      'batches',
      'calls',
      'projects',
      'rejections',
      'settings',
      'startup_tools',
      'startups',
    ]);
    for (const t of tables) expect(t.sql, t.name).toMatch(/\)\s*STRICT$/);
    expect(() =>
      db
        .prepare(
          "INSERT INTO projects (key_sha256, key_prefix, first_seen_ms, last_seen_ms) VALUES ('a', 'b', 'soon', 1)",
        )
        .run(),
    ).toThrow(/cannot store TEXT value in INTEGER column/);
  });

  it('moves an older database forward and keeps its rows; never re-runs a migration', () => {
    const path = tempDb();
    const old = new Database(path);
    migrate(old, MIGRATIONS.slice(0, 1));
    old
      .prepare(
        "INSERT INTO projects (key_sha256, key_prefix, first_seen_ms, last_seen_ms) VALUES ('h', 'mp_live_old', 1, 2)",
      )
      .run();
    old.close();
    const store = openStore(path);
    expect(connectionOf(store).pragma('user_version', { simple: true })).toBe(
      MIGRATIONS.at(-1)!.version,
    );
    expect(store.read.projects().map((p) => p.key_prefix)).toEqual(['mp_live_old']);
    store.close();
    const again = openStore(path); // a second open is a no-op, not an error
    expect(again.read.projects()).toHaveLength(1);
    again.close();
  });

  it('refuses a database from a newer version instead of touching it', () => {
    const db = new Database(':memory:');
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    expect(() => migrate(db)).toThrow(DatabaseTooNewError);
  });

  it('opens in WAL mode with foreign keys on', () => {
    const store = openStore(tempDb());
    expect(connectionOf(store).pragma('journal_mode', { simple: true })).toBe('wal');
    expect(connectionOf(store).pragma('foreign_keys', { simple: true })).toBe(1);
    store.close();
  });

  it('003 keeps the deferred-facts watermark at or below the highest call id on a v2 file', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.slice(0, 2));
    db.exec(`
      INSERT INTO projects (id, key_sha256, key_prefix, first_seen_ms, last_seen_ms) VALUES (1, 'h', 'k', 1, 1);
      INSERT INTO batches (id, project_id, received_ms, status, accepted, rejected, body_bytes) VALUES (1, 1, 1, 202, 3, 0, 1);
      INSERT INTO settings (key, value) VALUES ('derived_through_call_id', '3');
    `);
    const insert = db.prepare(
      `INSERT INTO calls (id, project_id, batch_id, session_id, client_name, tool_name, started_at, started_ms,
         duration_ms, outcome, response_bytes, is_empty, args_hash, received_ms)
       VALUES (?, 1, 1, 's', 'c', 't', '2026-12-02T10:00:00Z', ?, 1, 'ok', 1, 0, 'aaaaaaaaaaaa', 1)`,
    );
    for (const id of [1, 2, 3]) insert.run(id, id * 1000);
    expect(migrate(db, MIGRATIONS.slice(0, 3))).toBe(3);
    const mark = db
      .prepare("SELECT value FROM settings WHERE key = 'derived_through_call_id'")
      .pluck();
    db.prepare('DELETE FROM calls WHERE id = 1').run();
    expect(mark.get()).toBe('3'); // an older call: unchanged
    db.prepare('DELETE FROM calls WHERE id = 3').run();
    expect(mark.get()).toBe('2'); // the newest: follows down to the highest remaining id
    db.prepare('DELETE FROM calls').run();
    expect(mark.get()).toBe('0');
  });

  it('004 adds an empty, STRICT spool to a v3 file and keeps its rows', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.slice(0, 3));
    db.exec(
      "INSERT INTO projects (key_sha256, key_prefix, first_seen_ms, last_seen_ms) VALUES ('h', 'k', 1, 1)",
    );
    expect(migrate(db, MIGRATIONS.slice(0, 4))).toBe(4);
    expect(db.prepare('SELECT count(*) AS n FROM projects').get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT count(*) AS n FROM spool').get()).toEqual({ n: 0 });
    const sql = db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'spool'").pluck().get();
    expect(sql).toMatch(/\)\s*STRICT$/);
    const insert = db.prepare(
      `INSERT INTO spool (received_ms, key_sha256, key_prefix, user_agent, payloads, body)
       VALUES (1, 'h', 'k', NULL, ?, ?)`,
    );
    insert.run(30, Buffer.from('{"batch":[]}'));
    expect(() => insert.run(-1, Buffer.from('{}'))).toThrow(/CHECK constraint failed/);
    expect(() => insert.run(1, 'text, not bytes')).toThrow(
      /cannot store TEXT value in BLOB column/,
    );
  });
});
