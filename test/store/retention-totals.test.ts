/**
 * What retention deleted is counted in the file, step by step: the calls stored plus the calls
 * retention deleted equal the calls acknowledged, across passes, restarts and the API — and
 * clear-all starts the count again.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createIngest, LiveBus } from '../../src/ingest/index.js';
import { connectionOf } from '../../src/store/connection.js';
import {
  createRetention,
  readRetentionTotals,
  writeRetentionSettings,
} from '../../src/store/retention/index.js';
import { startTestServer } from '../helpers/server.js';
import { ingestAt, rng, sessionCalls } from '../reliability/helpers/data.js';
import { authedFetch } from '../helpers/token.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 2, 12);

describe('retention totals', () => {
  it('add up every step of every pass, in the file, and the API serves them', async () => {
    const t = await startTestServer({ retention: false });
    try {
      const ingest = createIngest({ store: t.store, bus: new LiveBus() });
      const r = rng(12);
      // 20 sessions of 100 calls past the age cap, 30 sessions of 100 within it.
      for (let i = 0; i < 20; i++)
        ingestAt(
          ingest,
          sessionCalls(`s_old_${i}`, NOW - 40 * DAY + i * 60_000, 100, r),
          NOW - 40 * DAY,
        );
      for (let i = 0; i < 30; i++)
        ingestAt(ingest, sessionCalls(`s_new_${i}`, NOW - DAY + i * 600_000, 100, r), NOW - DAY);
      const acknowledged = 5_000;
      const stored = () =>
        connectionOf(t.store).prepare<[], { n: number }>('SELECT count(*) AS n FROM calls').get()!
          .n;

      expect((await t.api('retention')).totals).toEqual({
        deleted: { calls: 0, startups: 0, batches: 0, rejections: 0, agreements: 0, content: 0 },
        since_ms: null,
        last_ms: null,
      });

      let clock = NOW;
      const retention = createRetention(t.store, { now: () => clock, chunkRows: 64 });
      const byAge = await retention.runPass();
      expect(byAge.deleted.calls).toBe(2_000);
      let totals = (await t.api('retention')).totals;
      expect(totals.deleted.calls).toBe(2_000);
      expect(totals.deleted.batches).toBe(byAge.deleted.batches);
      expect(totals.since_ms).toBe(NOW);
      expect(stored() + totals.deleted.calls).toBe(acknowledged);

      // A second pass, by size, an hour later: added to the first.
      clock = NOW + 3_600_000;
      writeRetentionSettings(connectionOf(t.store), { max_calls: 1_000 });
      const bySize = await retention.runPass();
      expect(bySize.deleted.calls).toBeGreaterThanOrEqual(2_000);
      totals = (await t.api('retention')).totals;
      expect(totals.deleted.calls).toBe(2_000 + bySize.deleted.calls);
      expect(totals.since_ms).toBe(NOW);
      expect(totals.last_ms).toBe(clock);
      expect(stored() + totals.deleted.calls).toBe(acknowledged);

      // Kept in the file: another connection (a restart, `export`) reads the same totals.
      const other = new Database(t.dbPath, { readonly: true });
      try {
        expect(readRetentionTotals(other)).toEqual(totals);
      } finally {
        other.close();
      }

      // Clear-all starts the count again with the data.
      const res = await authedFetch(`${t.url}/api/admin/clear`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ confirm: 'delete all data' }),
      });
      expect(res.status).toBe(200);
      expect((await t.api('retention')).totals.since_ms).toBeNull();
    } finally {
      await t.close();
    }
  });

  it('a step that fails counts nothing: the count moves only with the rows', async () => {
    const t = await startTestServer({ retention: false });
    try {
      const ingest = createIngest({ store: t.store, bus: new LiveBus() });
      ingestAt(ingest, sessionCalls('s_old', NOW - 40 * DAY, 100, rng(3)), NOW - 40 * DAY);
      const db = connectionOf(t.store);
      // The tally's own row refuses the write: the step's transaction rolls back whole.
      db.exec(
        "CREATE TEMP TRIGGER refuse BEFORE INSERT ON main.retention_deleted BEGIN SELECT RAISE(ABORT, 'refused'); END",
      );
      const failed = await createRetention(t.store, { now: () => NOW }).runPass();
      expect(failed.error).toMatch(/refused/);
      expect(db.prepare('SELECT count(*) AS n FROM calls').get()).toEqual({ n: 100 });
      expect(readRetentionTotals(db).deleted.calls).toBe(0);
      db.exec('DROP TRIGGER temp.refuse');
      const ok = await createRetention(t.store, { now: () => NOW }).runPass();
      expect(ok.deleted.calls).toBe(100);
      expect(readRetentionTotals(db).deleted.calls).toBe(100);
    } finally {
      await t.close();
    }
  });
});
