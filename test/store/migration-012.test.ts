import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { readRetentionTotals } from '../../src/store/retention/index.js';
import { olderFile, tableRows, upgradedAndFresh } from '../helpers/older-file.js';

describe('migration retention-totals', () => {
  it('adds an empty STRICT table of what retention deleted; the data stays as it was', () => {
    const { db, index } = olderFile('retention-totals', [
      ['s1', 'cursor', 'search', 1_000, 12, 'ok', 10, 'aaaaaaaaaaaa'],
      ['s1', 'cursor', 'search', 2_000, 15, 'tool_error', 30, 'aaaaaaaaaaaa'],
    ]);
    // Before: read-only tools on the older file see zeros, not an error.
    expect(readRetentionTotals(db)).toEqual({
      deleted: { calls: 0, startups: 0, batches: 0, rejections: 0, agreements: 0, content: 0 },
      since_ms: null,
      last_ms: null,
    });
    const before = tableRows(db, ['calls', 'metrics_sessions', 'metrics_chains'], 1);

    expect(migrate(db, MIGRATIONS.slice(0, index + 1))).toBe(MIGRATIONS[index]!.version);

    expect(tableRows(db, ['calls', 'metrics_sessions', 'metrics_chains'], 1)).toEqual(before);
    expect(db.prepare('SELECT count(*) AS n FROM retention_deleted').get()).toEqual({ n: 0 });
    const sql = db
      .prepare<[], { sql: string }>(
        "SELECT sql FROM sqlite_schema WHERE name = 'retention_deleted'",
      )
      .get()!.sql;
    expect(sql).toMatch(/STRICT/);
    expect(() =>
      db.prepare("INSERT INTO retention_deleted VALUES ('calls', -1, 1, 1)").run(),
    ).toThrow(/CHECK/);
  });

  it('leaves an upgraded file the same as a new one', () => {
    const [upgraded, fresh] = upgradedAndFresh('retention-totals');
    const schema = (d: typeof upgraded) =>
      d.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY type, name').all();
    expect(schema(upgraded)).toEqual(schema(fresh));
  });
});
