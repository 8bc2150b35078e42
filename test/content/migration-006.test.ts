import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';

/** The migrations up to and including the one named `name` (numbers may change at merge). */
const through = (name: string) => {
  const i = MIGRATIONS.findIndex((m) => m.name === name);
  if (i === -1) throw new Error(`no migration named ${name}`);
  return MIGRATIONS.slice(0, i + 1);
};

describe('migration proxy-content', () => {
  it('adds empty STRICT content tables to the previous version and keeps its rows', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    const before = through('proxy-content').slice(0, -1);
    migrate(db, before);
    db.exec(`
      INSERT INTO projects (id, key_sha256, key_prefix, first_seen_ms, last_seen_ms) VALUES (1, 'h', 'k', 1, 1);
      INSERT INTO batches (id, project_id, received_ms, status, accepted, rejected, body_bytes) VALUES (1, 1, 1, 202, 1, 0, 1);
    `);
    const version = migrate(db, through('proxy-content'));
    expect(version).toBe(before.at(-1)!.version + 1);
    expect(db.prepare('SELECT count(*) AS n FROM batches').get()).toEqual({ n: 1 });
    for (const table of ['proxy_messages', 'proxy_sessions', 'proxy_unanswered']) {
      expect(db.prepare(`SELECT count(*) AS n FROM ${table}`).get(), table).toEqual({ n: 0 });
      const sql = db.prepare('SELECT sql FROM sqlite_schema WHERE name = ?').pluck().get(table);
      expect(sql, table).toMatch(/\)\s*STRICT$/);
    }

    const insert = db.prepare(
      `INSERT INTO proxy_messages (project_id, session_id, seq, direction, at_ms, method, rpc_id, kind,
         body, truncated, bytes, call_started_at, received_ms) VALUES (1, 's', ?, ?, ?, 'tools/call', '1', ?, '{}', ?, ?, NULL, 1)`,
    );
    insert.run(0, 'client', 1.5, 'request', 0, 2); // fractional at_ms is kept
    expect(db.prepare('SELECT at_ms FROM proxy_messages').pluck().get()).toBe(1.5);
    // One message per (session, seq): the proxy's retry is a conflict, not a second row.
    expect(() => insert.run(0, 'server', 2, 'result', 0, 2)).toThrow(/UNIQUE constraint failed/);
    expect(() => insert.run(1, 'sideways', 2, 'result', 0, 2)).toThrow(/CHECK constraint failed/);
    expect(() => insert.run(1, 'server', 2, 'answer', 0, 2)).toThrow(/CHECK constraint failed/);
    expect(() => insert.run(1, 'server', 2, 'result', 2, 2)).toThrow(/CHECK constraint failed/);
    expect(() => insert.run(-1, 'server', 2, 'result', 0, 2)).toThrow(/CHECK constraint failed/);
    expect(() => insert.run(1, 'server', 'soon', 'result', 0, 2)).toThrow(
      /cannot store TEXT value/,
    );

    db.exec(
      `INSERT INTO proxy_sessions (project_id, session_id, transport, received_ms) VALUES (1, 's', 'stdio', 1)`,
    );
    expect(() =>
      db.exec(
        `INSERT INTO proxy_sessions (project_id, session_id, transport, received_ms) VALUES (1, 't', 'pigeon', 1)`,
      ),
    ).toThrow(/CHECK constraint failed/);
    db.exec(
      `INSERT INTO proxy_unanswered (project_id, session_id, rpc_id, method, tool_name, sent_at_ms, received_ms) VALUES (1, 's', '7', 'tools/call', 'slow', 3, 1)`,
    );

    // A call finds its content through the partial index on call_started_at.
    const plan = db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT seq FROM proxy_messages WHERE project_id = 1 AND session_id = 's' AND call_started_at = 'x'",
      )
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('proxy_messages_by_call');

    // Deleting the project takes its content with it.
    db.exec('DELETE FROM projects');
    for (const table of ['proxy_messages', 'proxy_sessions', 'proxy_unanswered'])
      expect(db.prepare(`SELECT count(*) AS n FROM ${table}`).get(), table).toEqual({ n: 0 });
  });
});
