import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { TABLES } from '../../src/store/migrations/008-hourly-rollups.js';
import {
  expectBackfillHolds,
  olderFile,
  tableRows,
  type OlderCall,
} from '../helpers/older-file.js';

const HOUR = 3_600_000;
const BASE = Date.UTC(2026, 10, 3, 22, 10);
const outcomes = ['ok', 'ok', 'tool_error', 'bad_args', 'crashed'];

/** A version-7 database holding calls over a midnight, its rollups filled as 7 kept them. */
const older = () =>
  olderFile(
    'hourly-rollups',
    Array.from({ length: 400 }, (_, i): OlderCall => [
      `s${i % 7}`,
      i % 3 ? 'cursor' : 'claude-code',
      `tool_${i % 5}`,
      BASE + Math.floor((i * 5 * HOUR) / 400),
      (i * 37) % 3000,
      outcomes[i % outcomes.length]!,
      (i * 91) % 5000,
      i % 4 ? 'aaaaaaaaaaaa' : 'bbbbbbbbbbbb',
    ]),
  );

const snapshot = (db: Database.Database) => tableRows(db, TABLES, 5);

describe('migration hourly-rollups', () => {
  it('adds the hourly and daily rollups, filled exactly as a rebuild fills them', () => {
    const { db, index } = older();
    const daily = db.prepare('SELECT * FROM metrics_daily ORDER BY 1, 2, 3, 4, 5, 6, 7').all();
    expect(migrate(db, MIGRATIONS.slice(0, index + 1))).toBe(MIGRATIONS[index]!.version);
    const migrated = snapshot(db);
    // Five hours over a midnight (six clock hours): rows in every new table.
    expect(migrated.metrics_hour_stats!.length).toBeGreaterThan(20);
    const hours = db.prepare(
      "SELECT DISTINCT hour_ms FROM metrics_latency_hours WHERE tool_name = ''",
    );
    expect(hours.all()).toHaveLength(6);
    const days = db.prepare('SELECT sum(n) AS n FROM metrics_latency_days GROUP BY day_ms');
    expect(days.all()).toEqual([{ n: 147 }, { n: 253 }]);
    expect(db.prepare('SELECT sum(calls) AS n FROM metrics_session_hours').get()).toEqual({
      n: 400,
    });
    // The replaced table is gone; the older rollups were not touched.
    expect(
      db
        .prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'metrics_latency_hourly'")
        .get(),
    ).toEqual({ n: 0 });
    expect(db.prepare('SELECT * FROM metrics_daily ORDER BY 1, 2, 3, 4, 5, 6, 7').all()).toEqual(
      daily,
    );
    // What the backfill wrote is what a full rebuild computes; STRICT; keyed by project.
    expectBackfillHolds(
      db,
      MIGRATIONS[index]!.version,
      TABLES,
      5,
      migrated,
      'metrics_latency_hours',
    );
  });
});
