/** Migration 002 moves a v1 database with data forward: rows kept, facts and rollups backfilled. */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveSession } from '../../src/metrics/links.js';
import { buildSummary } from '../../src/metrics/report.js';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { openStore } from '../../src/store/index.js';
import { metricsOf } from '../../src/store/metrics/queries.js';
import { createMetricsMaintainer } from '../../src/store/metrics/maintain.js';
import { call, snapshot, write } from './helpers.js';
import { connectionOf } from '../../src/store/connection.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function v1Database(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcpulse-m002-'));
  dirs.push(dir);
  const path = join(dir, 'v1.db');
  const db = new Database(path);
  expect(migrate(db, MIGRATIONS.slice(0, 1))).toBe(1);
  db.exec(`
    INSERT INTO projects VALUES (1, 'sha', 'mp_live_test', 0, 0);
    INSERT INTO batches (id, project_id, received_ms, status, accepted, rejected, body_bytes) VALUES (1, 1, 0, 202, 7, 0, 0);
    INSERT INTO startups (id, project_id, batch_id, session_id, client_name, received_ms) VALUES (1, 1, 1, 's_1', 'c', 0);
    INSERT INTO startup_tools VALUES (1, 0, 'fast_tool', 333, NULL), (1, 1, 'slow_tool', 286, NULL), (1, 2, 'dead_tool', 356, NULL);
  `);
  const ins = db.prepare(
    `INSERT INTO calls (project_id, batch_id, session_id, client_name, tool_name, started_at, started_ms,
       duration_ms, outcome, response_bytes, is_empty, args_hash, received_ms) VALUES (1, 1, 's_1', 'c', ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
  );
  const rows: [string, string, number, string, number, number, string][] = [
    ['fast_tool', '2026-12-02T09:49:43.544Z', 5, 'ok', 65, 0, 'f079ac726bf6'],
    ['fast_tool', '2026-12-02T09:49:43.565Z', 5, 'bad_args', 190, 0, 'c9af52d21b70'],
    ['slow_tool', '2026-12-02T09:49:43.571Z', 3004, 'ok', 58, 0, 'f079ac726bf6'],
    ['fast_tool', '2026-12-02T09:49:46.577Z', 0, 'ok', 72, 0, 'f7e7304a0bed'],
    ['fast_tool', '2026-12-02T09:49:46.600Z', 1, 'ok', 72, 1, '000000000000'],
  ];
  // Stored out of start order, as late batches leave them.
  for (const r of [rows[3], rows[0], rows[4], rows[2], rows[1]]) {
    const [tool, iso, d, o, b, e, hsh] = r!;
    ins.run(tool, iso, Date.parse(iso), d, o, b, e, hsh);
  }
  db.close();
  return path;
}

describe('migration 002', () => {
  it('keeps every v1 row and backfills facts, rollups, chains and startup totals', () => {
    const path = v1Database();
    const store = openStore(path);
    try {
      expect(connectionOf(store).pragma('user_version', { simple: true })).toBe(
        MIGRATIONS.at(-1)!.version,
      );
      expect(store.read.counts()).toMatchObject({ projects: 1, calls: 5, startups: 1, batches: 1 });
      const rows = connectionOf(store)
        .prepare(
          'SELECT id, tool_name, started_ms, args_hash, outcome, is_empty, link, prev_link, fcs, run_id, chain, prev_tool FROM calls',
        )
        .all() as { id: number; [k: string]: unknown }[];
      const ref = deriveSession(rows as never);
      for (const r of rows) {
        const { link, prev_link, fcs, run_id, chain, prev_tool } = r;
        expect({ link, prev_link, fcs, run_id, chain, prev_tool }).toEqual(ref.get(r.id));
      }
      const m = metricsOf(store);
      const schema = m.sessionSchema({});
      const s = buildSummary({
        stats: m.stats({}),
        percentiles: m.percentiles({}),
        registered: m.registered({}),
        sessions: schema.sessions,
        schema,
        usdPerMillion: 3,
      });
      expect(s).toMatchObject({
        calls: 5,
        sessions: 1,
        retries: 2,
        unknown_links: 1,
        retry_chains: 1,
      });
      // slow_tool, and 46.577 (its next call is unhashable: unknown, not a retry); 46.600 is empty
      expect(s.first_call_success.successes).toBe(2);
      expect(s.latency).toMatchObject({ p50_ms: 5, p95_ms: 3004, p95_bucket: '>2s' });
      expect(s.cost.schema_units).toBe(975);
      expect(s.tools.find((t) => t.name === 'dead_tool')).toMatchObject({
        dead: true,
        registered: true,
      });
      expect(
        connectionOf(store)
          .prepare('SELECT calls, retries, unknown_links, resolved FROM metrics_chains')
          .all(),
      ).toEqual([{ calls: 4, retries: 2, unknown_links: 1, resolved: 0 }]);

      // And ingest continues incrementally on the migrated file, exactly.
      write(store, [
        call({
          session_id: 's_1',
          client_name: 'c',
          tool: 'fast_tool',
          t: '2026-12-02T09:49:50Z',
          hash: 'aaaaaaaaaaaa',
        }),
      ]);
      const before = snapshot(store);
      createMetricsMaintainer(connectionOf(store)).rebuildAll();
      expect(snapshot(store)).toEqual(before);
    } finally {
      store.close();
    }
  });

  it('an empty v1 database migrates too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpulse-m002-'));
    dirs.push(dir);
    const db = new Database(join(dir, 'empty.db'));
    migrate(db, MIGRATIONS.slice(0, 1));
    expect(migrate(db, MIGRATIONS.slice(0, 2))).toBe(2);
    expect(db.prepare('SELECT count(*) AS n FROM metrics_daily').get()).toEqual({ n: 0 });
    db.close();
  });
});
