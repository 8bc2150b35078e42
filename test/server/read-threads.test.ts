/**
 * API reads run on read threads (issue 39): a real server on port 0 over a real file, real HTTP.
 * A download whose client stops reading holds a heavy thread for as long as it likes — the
 * deterministic stand-in for a slow view — while quick reads and ingest go on.
 */
import { get, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi } from '../../src/api/call.js';
import { createIngest, LiveBus } from '../../src/ingest/index.js';
import { ReadPool } from '../../src/server/index.js';
import { startTestServer, TOKEN_HEADERS, type TestServer } from '../helpers/server.js';

const CALLS = 20_000;
const T0 = Date.UTC(2026, 11, 1);

const call = (i: number) => ({
  v: 1,
  type: 'call',
  session_id: `s_${i % 200}`,
  client_name: i % 2 ? 'claude-code' : 'cursor',
  tool_name: ['search', 'fetch', 'write'][i % 3],
  started_at: new Date(T0 + i * 1000).toISOString(),
  duration_ms: 10 + (i % 50),
  outcome: i % 7 === 0 ? 'tool_error' : 'ok',
  response_bytes: 100 + i,
  args_hash: (i % 4096).toString(16).padStart(12, '0'),
});

let t: TestServer;
let pool: ReadPool;

beforeAll(async () => {
  // One shared thread for every read, one kept for quick ones: a held download fills the first.
  pool = new ReadPool({ shared: 1, reserved: 1 });
  t = await startTestServer({ readPool: pool }, (store) => {
    const ingest = createIngest({ store, bus: new LiveBus() });
    for (let b = 0; b < CALLS / 500; b++) {
      const batch = Array.from({ length: 500 }, (_, j) => call(b * 500 + j));
      const answer = ingest({
        authorization: 'Bearer mp_live_test',
        contentType: 'application/json',
        userAgent: 'seed',
        body: Buffer.from(JSON.stringify({ batch })),
        receivedMs: T0 + b,
      });
      if (answer.status !== 202) throw new Error(`seed ingest ${answer.status}`);
    }
  });
}, 120_000);

afterAll(async () => {
  await t.close();
  await pool.close();
});

/** Starts a download and stops reading it after its first bytes: its thread stays held. */
function heldDownload(
  path: string,
): Promise<{ req: ClientRequest; res: IncomingMessage; first: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = get(`${t.url}${path}`, { headers: TOKEN_HEADERS }, (res) => {
      res.once('data', (first: Buffer) => {
        res.pause();
        resolve({ req, res, first });
      });
    });
    req.on('error', reject);
  });
}

const until = async (check: () => boolean, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

it('answers a read on a read thread, exactly as the writer would', async () => {
  const res = await t.fetch('/api/summary?client=cursor');
  expect(res.status).toBe(200);
  expect(res.headers.get('server-timing')).toMatch(/read;dur=[\d.]+;desc="read thread"/);
  const onThread = (await res.json()) as { calls: number };
  const inProcess = await callApi(t.store, 'summary', { client: 'cursor' });
  expect(onThread).toEqual(JSON.parse(JSON.stringify(inProcess)));
  expect(onThread.calls).toBe(CALLS / 2);
});

it('sees every payload acknowledged before the read was asked', async () => {
  const before = (await t.api('calls', { session: 'fresh', limit: 100 })).calls.length;
  for (let i = 0; i < 20; i++) {
    const ack = await t.ingest({ batch: [{ ...call(CALLS + i), session_id: 'fresh' }] });
    expect(ack.status).toBe(202);
    const { calls } = await t.api('calls', { session: 'fresh', limit: 100 });
    expect(calls.length).toBe(before + i + 1);
    const summary = await t.api('summary', { session: 'fresh' });
    expect(summary.calls).toBe(before + i + 1);
  }
});

it('keeps quick reads and ingest answering while a download holds the heavy thread', async () => {
  const held = await heldDownload('/api/export?format=jsonl');
  try {
    await until(() => pool.stats().busy >= 1);
    // A heavy read waits for the held thread…
    const series = t.fetch('/api/timeseries?bucket=hour');
    await until(() => pool.stats().queued === 1);
    // …while quick reads take the thread kept for them, and ingest is acknowledged at once.
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const [summary, status, ack] = await Promise.all([
        t.fetch('/api/summary'),
        t.fetch('/api/status'),
        t.ingest({ batch: [{ ...call(CALLS + 100 + i), session_id: 'during' }] }),
      ]);
      expect([summary.status, status.status, ack.status]).toEqual([200, 200, 202]);
      expect(summary.headers.get('server-timing')).toContain('quick lane');
      expect(performance.now() - started).toBeLessThan(5_000);
    }
    expect(pool.stats().queued).toBe(1);
    // The download goes on once its client reads again; the heavy read then runs.
    held.res.resume();
    const lines = await new Promise<number>((resolve) => {
      let n = held.first.toString().split('\n').length - 1;
      held.res.on('data', (c: Buffer) => (n += c.toString().split('\n').length - 1));
      held.res.on('end', () => resolve(n));
    });
    expect(lines).toBeGreaterThan(CALLS);
    expect((await series).status).toBe(200);
  } finally {
    held.req.destroy();
  }
}, 60_000);

it('frees the thread of a download whose client went away', async () => {
  const before = pool.stats().abandoned;
  const held = await heldDownload('/api/export?format=jsonl');
  await until(() => pool.stats().busy >= 1);
  held.req.destroy();
  await until(() => pool.stats().abandoned === before + 1 && pool.stats().busy === 0);
  // The heavy thread takes the next heavy read.
  const res = await t.fetch('/api/timeseries?bucket=day');
  expect(res.status).toBe(200);
}, 30_000);

it("answers the retention settings on the server thread, with the runner's last pass", async () => {
  const saved = await t.fetch('/api/settings/retention', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ max_age_days: 3650 }),
  });
  expect(saved.status).toBe(200);
  // Saving starts a pass at once; only the server thread knows how it went.
  let view: { last_pass: unknown } = { last_pass: null };
  const end = Date.now() + 15_000;
  while (view.last_pass === null && Date.now() < end) {
    const res = await t.fetch('/api/settings/retention');
    expect(res.headers.get('server-timing')).toBeNull();
    view = (await res.json()) as { last_pass: unknown };
    if (view.last_pass === null) await new Promise((r) => setTimeout(r, 100));
  }
  expect(view.last_pass).not.toBeNull();
}, 30_000);

it('stops a read over its budget with a clear 503, and the next read gets a new thread', async () => {
  // A budget shorter than a thread takes to load: the read cannot finish in it.
  const strict = new ReadPool({ shared: 1, reserved: 1, budgetMs: 5 });
  const s = await startTestServer({ readPool: strict });
  try {
    const res = await s.fetch('/api/summary');
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toBe(
      'summary took longer than 5 ms and was stopped: narrow the time range or the filters',
    );
    expect(strict.stats().overBudget).toBe(1);
    await until(() => strict.stats().threads === 0);
  } finally {
    await s.close();
    await strict.close();
  }
});

it('answers on the server thread when threads cannot start here', async () => {
  const missing = new ReadPool({ entry: new URL('file:///nonexistent/worker.js') });
  const s = await startTestServer({ readPool: missing });
  try {
    // Every read is answered: by the server while the pool finds out, then without asking it.
    for (let i = 0; i < 4; i++) {
      const res = await s.fetch('/api/summary');
      expect(res.status).toBe(200);
      expect(res.headers.get('server-timing')).toBeNull();
    }
    expect(missing.broken).toBe(true);
  } finally {
    await s.close();
    await missing.close();
  }
});
