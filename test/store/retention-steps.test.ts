/**
 * Issue 19: a retention pass over sessions with no quiet 30 s (every cut forced) works in
 * small steps between apply slices, so applying the spool keeps at least half its rate during
 * the pass — it used to rebuild the whole project before every slice (30× slower for 11+
 * minutes). The derived facts are exact again when the pass ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSpooledIngest, LiveBus, type SpooledIngest } from '../../src/ingest/index.js';
import { connectionOf } from '../../src/store/connection.js';
import { openStore, type Store } from '../../src/store/index.js';
import { rebuildSql } from '../../src/store/metrics/sql.js';
import { createRetention, writeRetentionSettings } from '../../src/store/retention/index.js';

const DAY = 86_400_000;
const KEY = 'Bearer mp_live_retention_steps';
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A 30-call flush of one session, calls 2 s apart (one run without a quiet 30 s). */
function flush(session: string, n: number, startMs: number): Buffer {
  const batch = Array.from({ length: 30 }, (_, i) => {
    const k = n * 30 + i;
    return {
      v: 1,
      type: 'call',
      session_id: session,
      client_name: 'steps',
      tool_name: `tool_${k % 3}`,
      started_at: new Date(startMs + k * 2_000).toISOString(),
      duration_ms: (k * 37) % 900,
      outcome: k % 11 === 0 ? 'tool_error' : 'ok',
      response_bytes: (k * 131) % 5_000,
      is_empty: false,
      args_hash: k % 4 === 0 ? 'aaaaaaaaaaaa' : (k * 2654435761).toString(16).slice(-12),
    };
  });
  return Buffer.from(JSON.stringify({ batch }));
}

/** Spools `requests` flushes at once and resolves with the calls/s the applier stored them at. */
async function applyRate(
  ingest: SpooledIngest,
  session: string,
  from: number,
  requests: number,
): Promise<number> {
  const answers = Array.from({ length: requests }, (_, i) =>
    ingest.handle({
      authorization: KEY,
      contentType: 'application/json',
      userAgent: 'test',
      body: flush(session, from + i, Date.now() - DAY),
      receivedMs: Date.now(),
    }),
  );
  for (const a of await Promise.all(answers)) expect(a.status).toBe(202);
  const t0 = performance.now();
  while (ingest.state().pendingPayloads > 0) await new Promise((r) => setTimeout(r, 5));
  return (requests * 30) / ((performance.now() - t0) / 1000);
}

describe('retention in steps between apply slices', () => {
  it('keeps applying at ≥ 50% of its rate during a pass of forced cuts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpulse-retention-steps-'));
    dirs.push(dir);
    const store: Store = openStore(join(dir, 'devtools.db'), { deferDerived: true });
    const ingest = createSpooledIngest({ store, bus: new LiveBus() });
    try {
      // 24,000 old calls in 4 gapless sessions of one project, stored and maintained.
      const old = Date.now() - 60 * DAY;
      for (let s = 0; s < 4; s++) {
        for (let n = 0; n < 200; n++) {
          const r = await ingest.handle({
            authorization: KEY,
            contentType: 'application/json',
            userAgent: 'seed',
            body: flush(`s_old_${s}`, n, old),
            receivedMs: old,
          });
          expect(r.status).toBe(202);
        }
      }
      await ingest.settle(60_000);
      store.flushDerived();
      writeRetentionSettings(connectionOf(store), { max_calls: 1_000, max_age_days: 3650 });

      // The rate before: the better of two rounds (one noisy round on a shared machine must
      // not set the bar); during: every round while the pass runs, together.
      const before = Math.max(
        await applyRate(ingest, 's_new', 0, 100),
        await applyRate(ingest, 's_new', 100, 100),
      );
      const retention = createRetention(store, { chunkRows: 500 });
      const pass = retention.runPass();
      const rates: number[] = [];
      for (let round = 2; retention.running; round++) {
        rates.push(await applyRate(ingest, 's_new', round * 100, 100));
      }
      const during = rates.length / rates.reduce((a, r) => a + 1 / r, 0);
      console.log(
        `applying: ${before.toFixed(0)} calls/s before the pass, ${during.toFixed(0)} during (${rates.length} rounds)`,
      );
      const report = await pass;
      expect(report.error).toBeUndefined();
      expect(report.forced_cuts).toBeGreaterThan(10);
      expect(report.largest_step_calls).toBeLessThanOrEqual(500);
      expect(during).toBeGreaterThanOrEqual(0.5 * before);

      // Exact once the pass is over: nothing left dirty, every fact equal to a full rebuild.
      const db = connectionOf(store);
      store.flushDerived();
      expect(db.prepare('SELECT count(*) AS n FROM metrics_dirty').get()).toEqual({ n: 0 });
      const facts = () =>
        db.prepare('SELECT id, link, prev_link, fcs, run_id, chain, prev_tool FROM calls').all();
      const daily = () =>
        db
          .prepare('SELECT * FROM metrics_daily WHERE calls <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7')
          .all();
      const [f, d] = [facts(), daily()];
      db.exec(rebuildSql());
      expect(facts()).toEqual(f);
      expect(daily()).toEqual(d);
    } finally {
      ingest.close();
      store.close();
    }
  }, 120_000);
});
