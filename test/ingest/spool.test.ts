/**
 * The ingest spool (src/ingest/spool.ts, src/store/spool.ts) through a real server on a real
 * SQLite file: concurrent flushes are acknowledged from the spool and applied exactly once, a
 * lone flush is stored before its answer, readers see every acknowledged batch, the backlog
 * stays bounded, and a store that cannot apply answers 503 instead of acknowledging more.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/shared/live.js';
import type { SpoolState } from '../../src/shared/spool.js';
import type { SpoolEntry } from '../../src/store/index.js';
import {
  startTestServer,
  storedBySession,
  untilSpoolApplied,
  type TestServer,
} from '../helpers/server.js';
import { connectionOf } from '../../src/store/connection.js';
import { authedFetch } from '../helpers/token.js';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const call = (session: string, i: number, extra: Record<string, unknown> = {}) => ({
  v: 1,
  type: 'call',
  session_id: session,
  client_name: 'spool-test',
  tool_name: i % 3 === 0 ? 'search' : 'fetch',
  started_at: new Date(Date.UTC(2026, 11, 2, 9, 0, 0) + i * 1000).toISOString(),
  duration_ms: 10 + i,
  outcome: i % 7 === 0 ? 'tool_error' : 'ok',
  response_bytes: 100 * i,
  is_empty: false,
  args_hash: (i % 4 === 0 ? 'a1b2c3d4e5f6' : i.toString(16).padStart(12, '0')).slice(0, 12),
  ...extra,
});

const batch = (session: string, n: number, from = 0) =>
  Array.from({ length: n }, (_, k) => call(session, from + k));

/** What a kill -9 leaves behind: acknowledged requests, spooled, not yet applied. */
const leftInSpool = (sessions: string[], perBatch: number, keyPrefix: string): SpoolEntry[] =>
  sessions.map((s) => ({
    receivedMs: Date.now(),
    keySha256: keyPrefix.padEnd(64, '0').replace(/[^0-9a-f]/g, 'f'),
    keyPrefix,
    userAgent: 'test',
    payloads: perBatch,
    body: Buffer.from(JSON.stringify({ batch: batch(s, perBatch) })),
  }));

/** A server over a file whose spool already holds `entries`. */
const serverOverSpool = (entries: SpoolEntry[]): Promise<TestServer> =>
  startTestServer({ retention: false }, (store) => store.spool.add(entries));

const spoolOf = async (server: TestServer): Promise<SpoolState> => {
  const { spool } = await server.api('spool');
  if (!spool) throw new Error('the server reports no spool');
  return spool;
};

describe('ingest spool', () => {
  it('stores a lone flush before answering it', async () => {
    t = await startTestServer({ retention: false });
    const res = await t.ingest({ batch: batch('s_lone', 30) });
    expect(res.status).toBe(202);
    // Straight from the file, no read route in between to apply anything.
    expect(storedBySession(t.dbPath)).toEqual({ s_lone: 30 });
    expect((await spoolOf(t)).spooledRequests).toBe(0);
  });

  it('acknowledges concurrent flushes from the spool and applies each exactly once', async () => {
    t = await startTestServer({ retention: false });
    const sessions = Array.from({ length: 12 }, (_, i) => `s_${i}`);
    // Three rounds of twelve flushes at once; each round lands in one turn of the event loop.
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        sessions.map((s) => t!.ingest({ batch: batch(s, 40, round * 40) })),
      );
      for (const a of answers) {
        expect(a.status).toBe(202);
        expect(a.headers.get('x-mcpulse-accepted')).toBe('40');
      }
    }
    expect((await spoolOf(t)).spooledRequests).toBeGreaterThan(0);
    // A read sees every acknowledged call, and so does the file afterwards.
    const status = await t.api('status');
    expect(status.counts.calls).toBe(12 * 3 * 40);
    expect(status.spool?.pendingRequests).toBe(0);
    expect(storedBySession(t.dbPath)).toEqual(Object.fromEntries(sessions.map((s) => [s, 120])));
    const raw = new Database(t.dbPath, { readonly: true });
    try {
      expect(raw.prepare('SELECT count(*) AS n FROM spool').get()).toEqual({ n: 0 });
      expect(raw.prepare('SELECT count(*) AS n FROM batches').get()).toEqual({ n: 36 });
    } finally {
      raw.close();
    }
  });

  it('keeps the derived facts exact across spooled slices (same as storing one by one)', async () => {
    // The same calls, once through concurrent flushes, once stored one request at a time.
    const sessions = ['s_a', 's_b', 's_c'];
    const bodies = sessions.flatMap((s) =>
      Array.from({ length: 6 }, (_, k) => ({ batch: batch(s, 25, k * 25) })),
    );
    const facts = async (concurrent: boolean) => {
      const server = await startTestServer({ retention: false });
      try {
        if (concurrent) {
          for (let k = 0; k < 6; k++)
            await Promise.all(sessions.map((_, j) => server.ingest(bodies[j * 6 + k])));
        } else {
          for (const b of bodies) expect((await server.ingest(b)).status).toBe(202);
        }
        const summary = await server.api('summary');
        const chains = await server.api('chains', { limit: 500 });
        const sessionsPage = await server.api('sessions', { limit: 100 });
        const spooled = (await spoolOf(server)).spooledRequests;
        return { summary, chains, sessionsPage, spooled };
      } finally {
        await server.close();
      }
    };
    const spooled = await facts(true);
    const direct = await facts(false);
    expect(spooled.spooled).toBeGreaterThan(0);
    expect(direct.spooled).toBe(0);
    // Row ids and arrival times depend on the order requests were stored in; facts must not.
    const scrub = (v: unknown): unknown =>
      JSON.parse(JSON.stringify(v), (key, value: unknown) =>
        /^(id|from|to|received_ms)$|_ids?$/.test(key)
          ? Array.isArray(value)
            ? value.length
            : 0
          : value,
      );
    expect(scrub(spooled.summary)).toEqual(scrub(direct.summary));
    expect(scrub(spooled.chains)).toEqual(scrub(direct.chains));
    expect(scrub(spooled.sessionsPage)).toEqual(scrub(direct.sessionsPage));
  });

  it('records dropped items of spooled flushes with their reasons, and publishes them live', async () => {
    t = await startTestServer({ retention: false });
    const events: LiveEvent[] = [];
    t.server.bus.subscribe((e) => events.push(e));
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t!.ingest({ batch: [call(`s_${i}`, 1), { ...call(`s_${i}`, 2), outcome: 'nope' }] }),
      ),
    );
    for (const a of answers) {
      expect(a.status).toBe(202);
      expect(a.headers.get('x-mcpulse-rejected')).toBe('1');
    }
    const rejections = await t.api('rejections');
    expect(rejections.rejections).toHaveLength(6);
    for (const r of rejections.rejections) {
      expect(r.item_index).toBe(1);
      expect(r.reason).toMatch(/^outcome: Invalid enum value/);
    }
    const calls = events.filter((e) => e.type === 'call');
    expect(calls).toHaveLength(6);
    // Published once stored: with the ids the database gave them.
    const ids = (await t.api('calls')).calls.map((c) => c.id);
    expect(calls.map((e) => (e.data as { id: number }).id).sort()).toEqual(ids.sort());
  });

  it('applies what a previous run left in the spool, exactly once', async () => {
    t = await serverOverSpool(leftInSpool(['s_left_1', 's_left_2'], 30, 'mp_live_left'));
    const status = await t.api('status');
    expect(status.counts.calls).toBe(60);
    expect(status.spool?.pendingRequests).toBe(0);
    expect(t.store.spool.backlog()).toEqual({ requests: 0, payloads: 0, oldestMs: null });
    expect(t.store.read.projects().map((p) => p.key_prefix)).toEqual(['mp_live_left']);
    expect(storedBySession(t.dbPath)).toEqual({ s_left_1: 30, s_left_2: 30 });
  });

  it('keeps applying during a flood that never pauses, so the dashboard keeps moving', async () => {
    t = await startTestServer({ retention: false });
    // Eight producers, each posting again the moment it is answered, for 1.5 s: the event
    // loop never goes quiet, which is when applying would otherwise wait.
    const until = performance.now() + 1500;
    let sent = 0;
    const producer = async (p: number): Promise<void> => {
      for (let k = 0; performance.now() < until; k++) {
        sent++;
        expect((await t!.ingest({ batch: batch(`s_flood_${p}`, 30, k * 30) })).status).toBe(202);
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, p) => producer(p)));
    // Read without applying anything: what went through the spool, and what is still in it.
    const spool = await spoolOf(t);
    expect(spool.spooledRequests).toBeGreaterThan(0);
    expect(spool.spooledRequests - spool.pendingRequests).toBeGreaterThan(0);
    // A flood's backlog is more than a read waits for; once it is applied, all are there.
    await untilSpoolApplied(t.url);
    const status = await t.api('status');
    expect(status.counts.batches).toBe(sent);
  });

  it('bounds the backlog: past the cap, acknowledgements wait for applying', async () => {
    t = await startTestServer({ retention: false, maxSpoolPayloads: 200 });
    const events: SpoolState[] = [];
    t.server.bus.subscribe((e) => {
      if (e.type === 'spool') events.push(e.data);
    });
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => t!.ingest({ batch: batch(`s_${i}`, 50, round * 50) })),
      );
      for (const a of answers) expect(a.status).toBe(202);
      // A group is spooled only once the backlog is under the cap: at most cap + one group.
      expect((await spoolOf(t)).pendingPayloads).toBeLessThan(200 + 10 * 50);
    }
    expect((await t.api('status')).counts.calls).toBe(2500);
    // The dashboard heard about the backlog, and that it drained.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(events.some((e) => e.pendingPayloads > 0)).toBe(true);
    expect(events.at(-1)!.pendingPayloads).toBe(0);
  });

  it('answers 503 while spooled batches cannot be applied, keeps them, and applies them after', async () => {
    // Acknowledged requests waiting in the spool…
    t = await serverOverSpool(leftInSpool(['s_wait_1', 's_wait_2'], 200, 'mp_live_wait'));
    // …and a database that cannot grow by the pages applying them needs.
    const pages = connectionOf(t.store).pragma('page_count', { simple: true }) as number;
    connectionOf(t.store).pragma(`max_page_count = ${pages}`);
    // The status route answers anyway (it reads what is there) and names the fault.
    const status = await t.api('status');
    expect(status.spool?.failing).toBe('database or disk is full');
    // No new acknowledgement while the backlog cannot be applied: not concurrent, not alone.
    const answers = await Promise.all([
      t.ingest({ batch: batch('s_new_1', 5) }),
      t.ingest({ batch: batch('s_new_2', 5) }),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(503);
      expect(((await a.json()) as { error: string }).error).toBe(
        'could not store the batch: database or disk is full',
      );
    }
    // A full disk stops writing, not reading (issue 19): metrics answer with what is stored,
    // and the status names what waits.
    const summary = await authedFetch(`${t.url}/api/summary`);
    expect(summary.status).toBe(200);
    expect((await t.api('status')).spool?.pendingRequests).toBe(2);
    // Room again: everything acknowledged is stored, nothing refused is.
    connectionOf(t.store).pragma('max_page_count = 1073741823');
    expect((await t.ingest({ batch: batch('s_after', 5) })).status).toBe(202);
    await t.api('summary');
    expect(storedBySession(t.dbPath)).toEqual({ s_wait_1: 200, s_wait_2: 200, s_after: 5 });
    expect((await spoolOf(t)).failing).toBeNull();
  });
});
