/**
 * Retention and clear-all: the caps delete whole runs of a session (never cutting a retry
 * chain), keep the metrics rollups exact without a rebuild, never hold ingest up for long, and
 * clear-all wants its confirmation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIngest, LiveBus, type IngestHandler } from '../../src/ingest/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { rebuildSql } from '../../src/store/metrics/sql.js';
import {
  createRetention,
  DEFAULT_RETENTION,
  readRetentionSettings,
  writeRetentionSettings,
} from '../../src/store/retention/index.js';
import { startTestServer } from '../helpers/server.js';
import { ingestAt, rng, sessionCalls, type WireCall } from './helpers/data.js';
import { connectionOf } from '../../src/store/connection.js';
import { authedFetch } from '../helpers/token.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 2, 12);

/** Everything derived from calls (every table in DERIVED_TABLES), without zero rows. */
function derivedState(store: Store) {
  const all = (sql: string) => connectionOf(store).prepare(sql).all();
  return {
    calls: all(
      'SELECT id, link, prev_link, fcs, run_id, chain, prev_tool, size_bucket FROM calls ORDER BY id',
    ),
    daily: all('SELECT * FROM metrics_daily WHERE calls <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7'),
    sessions: all('SELECT * FROM metrics_sessions WHERE calls <> 0 ORDER BY 1, 2, 3'),
    pairs: all('SELECT * FROM metrics_pairs WHERE n <> 0 ORDER BY 1, 2, 3, 4, 5'),
    sizes: all('SELECT * FROM metrics_sizes WHERE n <> 0 ORDER BY 1, 2, 3, 4, 5'),
    latency: all('SELECT * FROM metrics_latency WHERE n <> 0 ORDER BY 1, 2, 3'),
    durations: all('SELECT * FROM metrics_durations WHERE n <> 0 ORDER BY 1, 2'),
    hourly: all('SELECT * FROM metrics_hourly WHERE calls <> 0 ORDER BY 1, 2, 3, 4'),
    hourStats: all(
      'SELECT * FROM metrics_hour_stats WHERE calls <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7',
    ),
    latencyDays: all('SELECT * FROM metrics_latency_days WHERE n <> 0 ORDER BY 1, 2, 3, 4'),
    latencyHours: all('SELECT * FROM metrics_latency_hours WHERE n <> 0 ORDER BY 1, 2, 3, 4'),
    sessionHours: all('SELECT * FROM metrics_session_hours WHERE calls <> 0 ORDER BY 1, 2, 3, 4'),
    chains: all('SELECT * FROM metrics_chains ORDER BY run_id'),
  };
}

/** Retention left nothing for the engine to rebuild, and what it left equals a full rebuild. */
function expectDerivedExact(store: Store): void {
  expect(connectionOf(store).prepare('SELECT count(*) AS n FROM metrics_dirty').get()).toEqual({
    n: 0,
  });
  const kept = derivedState(store);
  connectionOf(store).exec(rebuildSql());
  expect(kept).toEqual(derivedState(store));
}

function callsBySession(store: Store): Record<string, number> {
  const rows = connectionOf(store)
    .prepare<[], { session_id: string; n: number }>(
      'SELECT session_id, count(*) AS n FROM calls GROUP BY session_id',
    )
    .all();
  return Object.fromEntries(rows.map((r) => [r.session_id, r.n]));
}

describe('retention passes', () => {
  let dir: string;
  let store: Store;
  let ingest: IngestHandler;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcpulse-retention-'));
    store = openStore(join(dir, 'devtools.db'));
    ingest = createIngest({ store, bus: new LiveBus() });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('defaults to 2,000,000 calls and 30 days, stored as a setting', () => {
    expect(readRetentionSettings(connectionOf(store))).toEqual(DEFAULT_RETENTION);
    expect(DEFAULT_RETENTION).toEqual({ max_calls: 2_000_000, max_age_days: 30 });
    writeRetentionSettings(connectionOf(store), { max_age_days: 7 });
    expect(readRetentionSettings(connectionOf(store))).toEqual({
      max_calls: 2_000_000,
      max_age_days: 7,
    });
    expect(() => writeRetentionSettings(connectionOf(store), { max_age_days: 0 })).toThrow(
      /max_age_days: expected an integer/,
    );
    expect(() => writeRetentionSettings(connectionOf(store), { max_calls: 10 })).toThrow(
      /max_calls/,
    );
    expect(() => writeRetentionSettings(connectionOf(store), { keep: 1 })).toThrow(
      /keep: unknown setting/,
    );
  });

  it('by age: deletes sessions that ended before the cutoff whole, and only the old runs of a live one', async () => {
    const r = rng(1);
    const old = NOW - 40 * DAY;
    const startup = (session: string) => ({
      v: 1,
      type: 'startup',
      session_id: session,
      client_name: 'c',
      tools: [{ name: 'search', schema_bytes: 120 }],
    });
    // Arrival order, as the server records it (received_ms grows with the row id).
    for (let i = 0; i < 5; i++)
      ingestAt(ingest, sessionCalls(`s_old_${i}`, old + i * 1000, 120, r), old);
    // A server process running for 40 days: old runs, a long quiet time, recent runs.
    ingestAt(ingest, sessionCalls('s_live', old, 150, r), old);
    // A second project that went quiet 40 days ago: its calls go, its latest startup stays.
    ingestAt(
      ingest,
      [startup('s_b'), ...sessionCalls('s_b', old, 40, r)],
      old,
      'mp_live_project_b',
    );
    ingestAt(ingest, [startup('s_old_0'), startup('s_old_1')], old);
    ingestAt(ingest, [{ v: 2, type: 'call' }], old);
    // Calls every 5 s straddling the cutoff: no quiet 30 s, so none of it may go.
    const straddle: WireCall[] = Array.from({ length: 60 }, (_, i) => ({
      ...sessionCalls('s_straddle', 0, 1, r)[0]!,
      started_at: new Date(NOW - 30 * DAY - 150_000 + i * 5_000).toISOString(),
    }));
    ingestAt(ingest, straddle.slice(0, 30), NOW - 30 * DAY - 100_000);
    ingestAt(ingest, straddle.slice(30), NOW - 30 * DAY + 100_000);
    ingestAt(ingest, sessionCalls('s_live', NOW - 5 * DAY, 80, r), NOW - 5 * DAY);
    for (let i = 0; i < 3; i++)
      ingestAt(ingest, sessionCalls(`s_new_${i}`, NOW - DAY, 90, r), NOW - DAY);
    ingestAt(ingest, [startup('s_new_0')], NOW - DAY);
    ingestAt(ingest, [{ v: 2, type: 'call' }], NOW - DAY);

    const before = callsBySession(store);
    const retention = createRetention(store, { now: () => NOW, chunkRows: 100 });
    const report = await retention.runPass();
    expect(report.error).toBeUndefined();

    const after = callsBySession(store);
    for (let i = 0; i < 5; i++) expect(after[`s_old_${i}`]).toBeUndefined();
    expect(after.s_b).toBeUndefined();
    expect(after.s_live).toBe(80);
    expect(after.s_straddle).toBe(60);
    for (let i = 0; i < 3; i++) expect(after[`s_new_${i}`]).toBe(before[`s_new_${i}`]);
    expect(report.deleted.calls).toBe(5 * 120 + 150 + 40);

    const startups = connectionOf(store)
      .prepare<[], { session_id: string }>('SELECT session_id FROM startups ORDER BY id')
      .all();
    expect(startups.map((s) => s.session_id)).toEqual(['s_b', 's_new_0']);
    expect(connectionOf(store).prepare('SELECT count(*) AS n FROM rejections').get()).toEqual({
      n: 1,
    });
    // Old batches went, and nothing points at a deleted row.
    expect(
      connectionOf(store)
        .prepare('SELECT count(*) AS n FROM batches WHERE received_ms < ?')
        .get(NOW - 30 * DAY),
    ).toEqual({
      n: 2, // project B's batch with its kept startup, and the straddling session's first batch
    });
    expect(connectionOf(store).pragma('foreign_key_check')).toEqual([]);
    expectDerivedExact(store);

    // A second pass finds nothing more to do.
    expect((await retention.runPass()).deleted).toEqual({
      calls: 0,
      startups: 0,
      batches: 0,
      rejections: 0,
      agreements: 0,
      content: 0,
    });
  });

  it('by size: deletes the oldest runs until the count is under the cap, rollups exact', async () => {
    const r = rng(2);
    for (let i = 0; i < 30; i++)
      ingestAt(
        ingest,
        sessionCalls(`s_${String(i).padStart(2, '0')}`, NOW - (30 - i) * 3_600_000, 100, r),
        NOW - (30 - i) * 3_600_000,
      );
    writeRetentionSettings(connectionOf(store), { max_calls: 1_000 });
    // Counted in slices of 250 ids (a step each), as a big file is, so no step holds the loop.
    const report = await createRetention(store, {
      now: () => NOW,
      chunkRows: 64,
      countSlice: 250,
    }).runPass();
    expect(report.error).toBeUndefined();
    const after = callsBySession(store);
    const total = Object.values(after).reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(1_000);
    expect(total).toBeGreaterThan(1_000 - 100);
    // The newest sessions are whole; the oldest are gone; at most one session was trimmed.
    for (let i = 21; i < 30; i++) expect(after[`s_${i}`]).toBe(100);
    expect(after.s_00).toBeUndefined();
    expect(Object.values(after).filter((n) => n !== 100)).toHaveLength(total % 100 === 0 ? 0 : 1);
    expectDerivedExact(store);
  });

  it('cuts a run with no quiet 30 s in chunks, exactly in place: nothing left to rebuild', async () => {
    // 1,500 calls 2 s apart: one gapless run, three chunks of 500.
    const r = rng(6);
    const calls = sessionCalls('s_busy', 0, 1_500, r).map((c, i) => ({
      ...c,
      started_at: new Date(NOW - 40 * DAY + i * 2_000).toISOString(),
    }));
    ingestAt(ingest, calls, NOW - 40 * DAY);
    ingestAt(ingest, sessionCalls('s_recent', NOW - DAY, 30, r), NOW - DAY);
    const report = await createRetention(store, { now: () => NOW, chunkRows: 500 }).runPass();
    expect(report.deleted.calls).toBe(1_500);
    expect(report.forced_cuts).toBe(2); // the third chunk ends the session: a clean cut
    expect(report.largest_step_calls).toBe(500);
    expect(callsBySession(store)).toEqual({ s_recent: 30 });
    expectDerivedExact(store);
    // And ingest goes on from there exactly.
    ingestAt(ingest, sessionCalls('s_recent', NOW, 30, r), NOW);
    expectDerivedExact(store);
  });

  it('gathers whole small sessions into one step up to the chunk, oldest first, rollups exact', async () => {
    // 120 sessions of 30 calls, one per minute (each as one SDK flush): by size down to 1,500.
    const r = rng(9);
    for (let i = 0; i < 120; i++)
      ingestAt(
        ingest,
        sessionCalls(`s_${String(i).padStart(3, '0')}`, NOW - DAY + i * 60_000, 30, r),
        NOW,
      );
    writeRetentionSettings(connectionOf(store), { max_calls: 1_500 });
    const report = await createRetention(store, { now: () => NOW, chunkRows: 500 }).runPass();
    expect(report.deleted.calls).toBe(3_600 - 1_500);
    // Many sessions a step, not one: 2,100 calls in about five steps, not 70.
    expect(report.largest_step_calls).toBeGreaterThan(300);
    expect(report.largest_step_calls).toBeLessThanOrEqual(500);
    expect(report.steps).toBeLessThan(15);
    const after = callsBySession(store);
    // Oldest first: the newest sessions are whole, at most one is trimmed, the oldest are gone.
    for (let i = 71; i < 120; i++) expect(after[`s_${String(i).padStart(3, '0')}`]).toBe(30);
    expect(Object.keys(after).length).toBeLessThanOrEqual(51);
    expect(after.s_000).toBeUndefined();
    expectDerivedExact(store);
  });

  it('rests as long as each step took, three times as long while the spool has a backlog', async () => {
    const r = rng(10);
    for (const [backlog, factor] of [
      [false, 1],
      [true, 3],
    ] as const) {
      for (let i = 0; i < 40; i++) {
        const session = sessionCalls(`s_${factor}_${i}`, NOW - 40 * DAY + i * 600_000, 100, r);
        ingestAt(ingest, session, NOW - 40 * DAY);
      }
      const pass = await createRetention(store, {
        now: () => NOW,
        chunkRows: 200,
        backlog: () => backlog,
      }).runPass();
      expect(pass.deleted.calls).toBe(4_000);
      // Each rest is the step's time times the factor, rounded up to the next millisecond.
      expect(pass.rest_ms).toBeGreaterThanOrEqual(factor * pass.work_ms);
      expect(pass.rest_ms).toBeLessThanOrEqual(factor * pass.work_ms + pass.steps);
    }
    expectDerivedExact(store);
  });

  it('never holds ingest up: small transactions, requests answered and stored during a pass', async () => {
    const r = rng(3);
    const t = await startTestServer({ retention: false });
    try {
      const serverIngest = createIngest({ store: t.store, bus: new LiveBus() });
      for (let i = 0; i < 60; i++)
        ingestAt(
          serverIngest,
          sessionCalls(`s_old_${i}`, NOW - 40 * DAY + i * 600_000, 250, r),
          NOW - 40 * DAY,
        );
      const oldLeft = connectionOf(t.store).prepare<[], { n: number }>(
        "SELECT count(*) AS n FROM calls WHERE session_id LIKE 's_old_%'",
      );
      const retention = createRetention(t.store, { now: () => NOW, chunkRows: 500 });
      const pass = retention.runPass();
      // Old calls still stored when each request issued during the pass was answered.
      const seen: number[] = [];
      let n = 0;
      while (retention.running) {
        const res = await t.ingest({ batch: sessionCalls(`s_during_${n++}`, NOW, 30, r) });
        expect(res.status).toBe(202);
        seen.push(oldLeft.get()!.n);
      }
      const report = await pass;
      expect(report.error).toBeUndefined();
      expect(report.deleted.calls).toBe(60 * 250);
      // Many small transactions: each of at most 500 calls (here two 250-call sessions each),
      // so a request waits behind one of them at most, never behind the whole pass.
      expect(report.largest_step_calls).toBe(500);
      expect(report.steps).toBeGreaterThanOrEqual(30);
      // Requests were answered while the pass was part-way through, not after it.
      expect(seen.filter((left) => left > 0 && left < 60 * 250).length).toBeGreaterThan(5);
      // Every request issued during the pass was stored whole.
      const stored = callsBySession(t.store);
      for (let i = 0; i < n; i++) expect(stored[`s_during_${i}`]).toBe(30);
      expectDerivedExact(t.store);
    } finally {
      await t.close();
    }
  });
});

describe('retention through the server', () => {
  it('runs on its own timer and stops when the server closes', async () => {
    let clock = NOW;
    const reports: number[] = [];
    const t = await startTestServer({
      retention: {
        now: () => clock,
        firstDelayMs: 10,
        intervalMs: 30,
        onPass: (p) => reports.push(p.deleted.calls),
      },
    });
    const controller = new AbortController();
    try {
      // Open dashboards hear about it: a pass that deleted rows says so on the live stream.
      const stream = await authedFetch(`${t.url}/api/stream`, {
        signal: controller.signal,
      });
      let heard = '';
      const reading = (async () => {
        const decoder = new TextDecoder();
        for await (const chunk of stream.body!) heard += decoder.decode(chunk as Uint8Array);
      })().catch(() => undefined);
      const ingest = createIngest({ store: t.store, bus: new LiveBus() });
      ingestAt(ingest, sessionCalls('s_a', NOW, 30, rng(4)), NOW);
      clock = NOW + 31 * DAY;
      await expect.poll(() => callsBySession(t.store).s_a, { timeout: 5_000 }).toBeUndefined();
      await expect
        .poll(() => heard, { timeout: 5_000 })
        .toMatch(/event: retention\ndata: \{"at_ms":\d+,"calls":30,/);
      controller.abort();
      await reading;
    } finally {
      controller.abort();
      await t.close();
    }
    const passes = reports.length;
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(reports.length).toBe(passes);
  });

  it('GET/PUT /api/settings/retention validates and stores', async () => {
    const t = await startTestServer();
    try {
      const get = await t.api('retention');
      expect(get).toMatchObject({
        max_calls: 2_000_000,
        max_age_days: 30,
        defaults: DEFAULT_RETENTION,
      });
      const put = (body: string, type = 'application/json') =>
        authedFetch(`${t.url}/api/settings/retention`, {
          method: 'PUT',
          headers: { 'content-type': type },
          body,
        });
      let res = await put(JSON.stringify({ max_age_days: 7, max_calls: 500_000 }));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ max_age_days: 7, max_calls: 500_000 });
      expect(await t.api('retention')).toMatchObject({
        max_age_days: 7,
        max_calls: 500_000,
      });
      for (const bad of [
        '{"max_age_days":-1}',
        '{"max_calls":"lots"}',
        '{"forever":true}',
        '[]',
        '{"max_age_days":1.5}',
      ]) {
        res = await put(bad);
        expect(res.status, bad).toBe(400);
        expect(((await res.json()) as { error: string }).error).toBeTruthy();
      }
      res = await put('{"max_age_days":1}', 'text/plain');
      expect(res.status).toBe(415);
      expect(await t.api('retention')).toMatchObject({ max_age_days: 7 });
    } finally {
      await t.close();
    }
  });

  it('POST /api/admin/clear wants {"confirm":"delete all data"}, empties everything but settings, and says so live', async () => {
    const t = await startTestServer();
    try {
      const r = rng(5);
      const res0 = await t.ingest({ batch: [...sessionCalls('s_x', NOW, 30, r), { v: 2 }] });
      expect(res0.status).toBe(202);
      await authedFetch(`${t.url}/api/settings/retention`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: '{"max_age_days":9}',
      });
      const clear = (body: string, type = 'application/json') =>
        authedFetch(`${t.url}/api/admin/clear`, {
          method: 'POST',
          headers: { 'content-type': type },
          body,
        });
      for (const bad of ['', '{}', '{"confirm":"yes"}', '{"confirm":"DELETE ALL DATA"}']) {
        const res = await clear(bad);
        expect(res.status, bad).toBe(400);
        expect(((await res.json()) as { error: string }).error).toMatch(/delete all data/);
      }
      expect((await clear('{"confirm":"delete all data"}', 'text/plain')).status).toBe(415);
      expect(callsBySession(t.store).s_x).toBe(30);

      const triggers = connectionOf(t.store)
        .prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'trigger'")
        .get();
      const events = new AbortController();
      const stream = await authedFetch(`${t.url}/api/stream`, { signal: events.signal });
      const reader = stream.body!.getReader();
      const res = await clear('{"confirm":"delete all data"}');
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        cleared: true,
        deleted: { calls: 30, rejections: 1 },
      });
      let text = '';
      while (!text.includes('event: cleared'))
        text += new TextDecoder().decode((await reader.read()).value);
      events.abort();

      const counts = connectionOf(t.store)
        .prepare(
          `SELECT (SELECT count(*) FROM calls) + (SELECT count(*) FROM batches) + (SELECT count(*) FROM projects)
                  + (SELECT count(*) FROM rejections) + (SELECT count(*) FROM metrics_daily) + (SELECT count(*) FROM metrics_sessions) AS n`,
        )
        .get();
      expect(counts).toEqual({ n: 0 });
      expect(await t.api('retention')).toMatchObject({ max_age_days: 9 });
      // The triggers are back and ingest carries on, derived facts exact.
      expect(
        connectionOf(t.store)
          .prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'trigger'")
          .get(),
      ).toEqual(triggers);
      expect((await t.ingest({ batch: sessionCalls('s_y', NOW, 30, r) })).status).toBe(202);
      expect(callsBySession(t.store)).toEqual({ s_y: 30 });
      expectDerivedExact(t.store);
    } finally {
      await t.close();
    }
  });
});
