import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';

/** Looked up by name: the lead may renumber migrations at merge. */
const upTo = (name: string) =>
  MIGRATIONS.slice(0, MIGRATIONS.findIndex((m) => m.name === name) + 1);
const before = (name: string) =>
  MIGRATIONS.slice(
    0,
    MIGRATIONS.findIndex((m) => m.name === name),
  );

describe('migration misdirected-and-omitted', () => {
  it('adds the ingest log columns and the omitted masks to an older file, keeping its rows', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, before('misdirected-and-omitted'));
    db.exec(`
      INSERT INTO projects (id, key_sha256, key_prefix, first_seen_ms, last_seen_ms) VALUES (1, 'h', 'k', 1, 1);
      INSERT INTO batches (id, project_id, received_ms, status, accepted, rejected, body_bytes) VALUES (1, 1, 1, 202, 1, 0, 1);
      INSERT INTO startups (id, project_id, batch_id, session_id, client_name, received_ms) VALUES (1, 1, 1, 's', 'c', 1);
      INSERT INTO calls (project_id, batch_id, session_id, client_name, tool_name, started_at, started_ms,
        duration_ms, outcome, response_bytes, is_empty, args_hash, received_ms)
        VALUES (1, 1, 's', 'c', 't', 'x', 1, 0, 'ok', 0, 0, '44136fa355b3', 1);
    `);
    const target = upTo('misdirected-and-omitted');
    expect(migrate(db, target)).toBe(target.at(-1)!.version);
    // Rows from before: an ingest at /v1/ingest, once; every field sent.
    expect(
      db.prepare('SELECT method, path, hint, repeats, last_received_ms FROM batches').get(),
    ).toEqual({ method: null, path: null, hint: null, repeats: 1, last_received_ms: null });
    expect(db.prepare('SELECT omitted FROM calls').get()).toEqual({ omitted: 0 });
    expect(db.prepare('SELECT omitted FROM startups').get()).toEqual({ omitted: 0 });

    // The tables stay STRICT and the new columns checked.
    expect(() => db.exec("UPDATE calls SET omitted = 'all'")).toThrow(/cannot store TEXT/);
    expect(() => db.exec('UPDATE calls SET omitted = 8')).toThrow(/CHECK constraint failed/);
    expect(() => db.exec('UPDATE startups SET omitted = 2')).toThrow(/CHECK constraint failed/);
    expect(() => db.exec('UPDATE batches SET repeats = 0')).toThrow(/CHECK constraint failed/);
    db.exec(
      "INSERT INTO batches (received_ms, status, accepted, rejected, body_bytes, method, path, hint) VALUES (2, 404, 0, 0, 0, 'POST', '/v1/ingest/v1/ingest', 'give the base URL')",
    );
    const plan = db
      .prepare(
        'EXPLAIN QUERY PLAN SELECT id FROM batches WHERE path IS NOT NULL ORDER BY id DESC LIMIT 1',
      )
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('batches_misdirected');
  });
});
