/**
 * Issue 39: the size cap's keep-up (src/store/retention/keep-up.ts) and the count it keeps
 * (call-count.ts). Steps delete the oldest whole runs down to the cap and no further, keep the
 * derived facts exact, count new calls without a `count(*)`, count again after a clear, and a
 * pass beside them never deletes the same excess twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIngest, LiveBus, type IngestHandler } from '../../src/ingest/index.js';
import { connectionOf } from '../../src/store/connection.js';
import { openStore, type Store } from '../../src/store/index.js';
import { rebuildSql } from '../../src/store/metrics/sql.js';
import {
  clearAll,
  createRetention,
  readRetentionTotals,
  writeRetentionSettings,
} from '../../src/store/retention/index.js';
import { ingestAt, rng, sessionCalls } from '../reliability/helpers/data.js';

const NOW = Date.now();
let dir: string;
let store: Store;
let ingest: IngestHandler;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcpulse-keep-up-'));
  store = openStore(join(dir, 'devtools.db'));
  ingest = createIngest({ store, bus: new LiveBus() });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const stored = (): number =>
  connectionOf(store).prepare<[], { n: number }>('SELECT count(*) AS n FROM calls').get()!.n;

/** `sessions` sessions of 30 calls, oldest first. */
function seed(sessions: number, from = 0): void {
  const r = rng(sessions + from);
  for (let i = from; i < from + sessions; i++)
    ingestAt(ingest, sessionCalls(`s_${i}`, NOW - (sessions - i) * 60_000, 30, r), NOW);
}

function expectDerivedExact(): void {
  const db = connectionOf(store);
  expect(db.prepare('SELECT count(*) AS n FROM metrics_dirty').get()).toEqual({ n: 0 });
  const facts = () =>
    db.prepare('SELECT id, link, prev_link, fcs, run_id, chain, prev_tool FROM calls').all();
  const daily = () =>
    db.prepare('SELECT * FROM metrics_daily WHERE calls <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7').all();
  const [f, d] = [facts(), daily()];
  db.exec(rebuildSql());
  expect(facts()).toEqual(f);
  expect(daily()).toEqual(d);
}

describe('the size cap kept between apply slices (issue 39)', () => {
  it('steps down to the cap, oldest runs first, no further, facts exact', () => {
    writeRetentionSettings(connectionOf(store), { max_calls: 1_000 });
    seed(100); // 3,000 calls
    const { keepUp } = createRetention(store, { countSlice: 700 });
    let steps = 0;
    let deleted = 0;
    while (keepUp.due()) {
      deleted += keepUp.step();
      expect(++steps).toBeLessThan(100);
    }
    expect(stored()).toBeLessThanOrEqual(1_000);
    // Whole sessions of 30 (runs): never more than one run under the cap.
    expect(stored()).toBeGreaterThan(1_000 - 30);
    expect(deleted).toBe(3_000 - stored());
    expect(readRetentionTotals(connectionOf(store)).deleted.calls).toBe(deleted);
    expectDerivedExact();

    // New calls are counted as they come (no count(*)): due again, and back to the cap.
    seed(10, 100);
    expect(keepUp.due()).toBe(true);
    while (keepUp.due()) keepUp.step();
    expect(stored()).toBeLessThanOrEqual(1_000);
    expect(stored()).toBeGreaterThan(1_000 - 30);
    expectDerivedExact();
  });

  it('counts again after a clear (ids start over)', () => {
    writeRetentionSettings(connectionOf(store), { max_calls: 1_000 });
    seed(50);
    const { keepUp } = createRetention(store);
    while (keepUp.due()) keepUp.step();
    clearAll(store);
    seed(30); // 900 calls, ids from 1 again: under the cap, nothing to do
    expect(keepUp.due()).toBe(false);
    expect(keepUp.step()).toBe(0);
    expect(stored()).toBe(900);
    seed(10, 30);
    while (keepUp.due()) keepUp.step();
    expect(stored()).toBeLessThanOrEqual(1_000);
    expect(stored()).toBeGreaterThan(1_000 - 30);
  });

  it('a pass beside the keep-up deletes only what is still over the cap', async () => {
    writeRetentionSettings(connectionOf(store), { max_calls: 1_000, max_age_days: 3_650 });
    seed(100);
    const retention = createRetention(store, { chunkRows: 60 });
    const pass = retention.runPass();
    // The keep-up steps while the pass rests between its steps.
    while (retention.running) {
      if (retention.keepUp.due()) retention.keepUp.step();
      await new Promise((r) => setTimeout(r, 1));
    }
    const report = await pass;
    expect(report.error).toBeUndefined();
    expect(stored()).toBeLessThanOrEqual(1_000);
    expect(stored()).toBeGreaterThan(1_000 - 60);
    expectDerivedExact();
  });
});
