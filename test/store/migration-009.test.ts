import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { TABLES } from '../../src/store/migrations/009-exact-durations.js';
import {
  callIndexNames,
  expectBackfillHolds,
  type OlderCall,
  olderFile,
  tableRows,
} from '../helpers/older-file.js';

const HOUR = 3_600_000;
const BASE = Date.UTC(2026, 10, 3, 22, 10);

/** A version-8 database holding 400 calls over five hours, its rollups filled as 8 kept them. */
const older = () =>
  olderFile(
    'exact-durations',
    // Durations repeat (i % 40): a tool's hour holds each value several times.
    Array.from({ length: 400 }, (_, i): OlderCall => [
      `s${i % 7}`,
      'cursor',
      `tool_${i % 5}`,
      BASE + Math.floor((i * 5 * HOUR) / 400),
      (i % 40) * 7,
      'ok',
      10,
      'aaaaaaaaaaaa',
    ]),
  );

const rows = (db: Database.Database) => tableRows(db, TABLES, 4);

describe('migration exact-durations', () => {
  it('counts each tool’s durations by day and by hour, and swaps the duration index for a time index', () => {
    const { db, index } = older();
    expect(callIndexNames(db)).toContain('calls_by_tool_duration');
    expect(migrate(db, MIGRATIONS.slice(0, index + 1))).toBe(MIGRATIONS[index]!.version);
    const migrated = rows(db);
    // Five hours over a midnight: every call counted once per table, in six clock hours.
    for (const t of TABLES)
      expect(db.prepare(`SELECT sum(n) AS n FROM ${t}`).get()).toEqual({ n: 400 });
    const hours = db.prepare('SELECT DISTINCT hour_ms FROM metrics_duration_hours');
    expect(hours.all()).toHaveLength(6);
    const days = db.prepare('SELECT day_ms, sum(n) AS n FROM metrics_duration_days GROUP BY 1');
    expect(days.all().map((r) => (r as { n: number }).n)).toEqual([147, 253]);
    // tool_0 took durations 0, 35, 70, …: one row per distinct value and day, counts summed.
    const tool0 = db.prepare(
      `SELECT duration_ms, sum(n) AS n FROM metrics_duration_days WHERE tool_name = 'tool_0'
       GROUP BY 1 ORDER BY 1`,
    );
    expect(tool0.all()).toEqual(
      Array.from({ length: 8 }, (_, k) => ({ duration_ms: k * 35, n: 10 })),
    );
    expect(callIndexNames(db)).toContain('calls_by_tool_time');
    expect(callIndexNames(db)).not.toContain('calls_by_tool_duration');
    // What the backfill wrote is what a full rebuild computes; STRICT; keyed by project.
    expectBackfillHolds(
      db,
      MIGRATIONS[index]!.version,
      TABLES,
      4,
      migrated,
      'metrics_duration_days',
    );
  });
});
