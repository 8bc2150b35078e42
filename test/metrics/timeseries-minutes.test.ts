/** `GET /api/timeseries?bucket=minute`: gap filling, boundaries, offsets, the automatic choice, the cap. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../../src/api/handlers.js';
import { BASE, call } from './helpers.js';
import { startHarness, type Harness } from './server.js';

let h: Harness;
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

type Series = Api['timeseries'];
type Point = Series['points'][number];

beforeAll(async () => {
  h = await startHarness();
  // Session 1 (BASE = 10:00:00Z): a retried bad_args call and its fix, a call on the last
  // millisecond of the minute and one on the first of the next, then nothing until 10:05.
  const s1 = { session_id: 's_m00000000001', client_name: 'claude-code' };
  expect(
    await h.ingest({
      batch: [
        call({ ...s1, t: 0, hash: 'aaaaaaaaaaaa', outcome: 'bad_args', duration_ms: 100 }),
        call({ ...s1, t: 1_000, hash: 'bbbbbbbbbbbb', duration_ms: 300 }),
        call({ ...s1, t: MIN - 1, tool: 'fetch', duration_ms: 50, response_bytes: 40 }),
        call({ ...s1, t: MIN, tool: 'fetch', duration_ms: 2_500, response_bytes: 60 }),
        call({ ...s1, t: 5 * MIN + 30_000, tool: 'fetch', is_empty: true }),
      ],
    }),
  ).toBe(202);
  // Session 2 from another client, sent with a +02:00 offset: 12:05:45+02:00 = 10:05:45Z.
  expect(
    await h.ingest({
      batch: [
        call({
          session_id: 's_m00000000002',
          client_name: 'cursor',
          t: '2026-12-02T12:05:45+02:00',
          outcome: 'tool_error',
        }),
      ],
    }),
  ).toBe(202);
});
afterAll(() => h.close());

const calls = (s: Series) => s.points.map((p) => [p.start?.slice(11, 19), p.calls]);

describe('minute buckets', () => {
  it('are chosen automatically under 3 hours and gap-filled from the first to the last call', async () => {
    const s = await h.get('timeseries', { project: 1 });
    expect(s).toMatchObject({ bucket: 'minute', width_ms: MIN, tz: 0 });
    expect(s.from).toBe(iso(BASE));
    expect(s.to).toBe(iso(BASE + 6 * MIN));
    expect(calls(s)).toEqual([
      ['10:00:00', 3],
      ['10:01:00', 1],
      ['10:02:00', 0],
      ['10:03:00', 0],
      ['10:04:00', 0],
      ['10:05:00', 2],
    ]);
    expect(s.points[2]).toEqual({
      start_ms: BASE + 2 * MIN,
      start: iso(BASE + 2 * MIN),
      calls: 0,
      first_call_success: { rate: null, successes: 0, calls: 0 },
      outcomes: { ok: 0, empty: 0, bad_args: 0, tool_error: 0, crashed: 0 },
      errors: 0,
      retries: 0,
      response_units: 0,
      cost_usd: 0,
      p95_ms: null,
      sessions_started: 0,
    });
  });

  it('carry exact first-call success, retries, outcomes, p95 and sessions started', async () => {
    const s = await h.get('timeseries', { project: 1, bucket: 'minute' });
    const [m0, m1, , , , m5] = s.points;
    expect(m0).toMatchObject({
      first_call_success: { successes: 2, calls: 3 },
      retries: 1,
      errors: 1,
      outcomes: { ok: 2, bad_args: 1 },
      response_units: 240,
      p95_ms: 300,
      sessions_started: 1,
    });
    expect(m1).toMatchObject({ p95_ms: 2_500, response_units: 60, sessions_started: 0 });
    expect(m5).toMatchObject({
      outcomes: { empty: 1, tool_error: 1 },
      errors: 1,
      first_call_success: { successes: 0, calls: 2, rate: 0 },
      sessions_started: 1,
    });
  });

  it('add up to the hour bucket and to the summary (raw minutes agree with the rollups)', async () => {
    const range = `from=${iso(BASE)}&to=${iso(BASE + 3_600_000)}`;
    const minutes = await h.get('timeseries', `project=1&bucket=minute&${range}`);
    const hours = await h.get('timeseries', `project=1&bucket=hour&${range}`);
    const summary = await h.get('summary', `project=1&${range}`);
    expect(minutes.points).toHaveLength(60);
    const sum = (k: (p: Point) => number) => minutes.points.reduce((a, p) => a + k(p), 0);
    const hour = hours.points[0]!;
    expect(sum((p) => p.calls)).toBe(hour.calls);
    expect(sum((p) => p.calls)).toBe(summary.calls);
    expect(sum((p) => p.first_call_success.successes)).toBe(summary.first_call_success.successes);
    expect(sum((p) => p.retries)).toBe(hour.retries);
    expect(sum((p) => p.response_units)).toBe(hour.response_units);
    expect(sum((p) => p.sessions_started)).toBe(hour.sessions_started);
  });

  it('from is inclusive and to exclusive, to the millisecond', async () => {
    const s = await h.get('timeseries', {
      project: 1,
      bucket: 'minute',
      from: iso(BASE + MIN),
      to: iso(BASE + 5 * MIN + 30_000),
    });
    expect(calls(s)).toEqual([
      ['10:01:00', 1],
      ['10:02:00', 0],
      ['10:03:00', 0],
      ['10:04:00', 0],
      ['10:05:00', 0],
    ]);
    // A range starting mid-minute keeps the whole first bucket but counts only calls in range.
    const mid = await h.get('timeseries', {
      project: 1,
      bucket: 'minute',
      from: iso(BASE + 30_000),
      to: iso(BASE + 2 * MIN),
    });
    expect(calls(mid)).toEqual([
      ['10:00:00', 1],
      ['10:01:00', 1],
    ]);
  });

  it('filters compose (client, tool) and read raw calls', async () => {
    const cursor = await h.get('timeseries', { project: 1, bucket: 'minute', client: 'cursor' });
    expect(calls(cursor)).toEqual([['10:05:00', 1]]);
    const fetch = await h.get('timeseries', {
      project: 1,
      bucket: 'minute',
      tool: 'fetch',
      from: iso(BASE),
      to: iso(BASE + 2 * MIN),
    });
    expect(calls(fetch)).toEqual([
      ['10:00:00', 1],
      ['10:01:00', 1],
    ]);
  });

  it('a tz offset of whole or half hours leaves minute boundaries on UTC minutes', async () => {
    for (const tz of [330, -210, 840, -840]) {
      const s = await h.get('timeseries', { project: 1, bucket: 'minute', tz });
      expect(s.tz).toBe(tz);
      expect(calls(s)).toEqual([
        ['10:00:00', 3],
        ['10:01:00', 1],
        ['10:02:00', 0],
        ['10:03:00', 0],
        ['10:04:00', 0],
        ['10:05:00', 2],
      ]);
    }
    // The same offset moves hour buckets to :30 (unchanged behaviour, for contrast).
    const hours = await h.get('timeseries', { project: 1, bucket: 'hour', tz: 330 });
    expect(hours.points.map((p) => p.start)).toEqual(['2026-12-02T09:30:00.000Z']);
  });

  it('automatic choice: under 3 hours minutes, 3 hours and up to 72 hours hours, beyond days', async () => {
    const auto = async (ms: number) =>
      (await h.get('timeseries', { project: 1, from: iso(BASE), to: iso(BASE + ms) })).bucket;
    expect(await auto(3 * 3_600_000 - 1)).toBe('minute');
    expect(await auto(3 * 3_600_000)).toBe('hour');
    expect(await auto(72 * 3_600_000)).toBe('hour');
    expect(await auto(72 * 3_600_000 + 1)).toBe('day');
  });

  it('at most 2,880 minute buckets; past that a 400 that says what to do', async () => {
    const at = (n: number) => `project=1&bucket=minute&from=${iso(BASE)}&to=${iso(BASE + n * MIN)}`;
    expect((await h.get('timeseries', at(2_880))).points).toHaveLength(2_880);
    const res = await h.getRaw(`/api/timeseries?${at(2_881)}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string };
    expect(body.error).toMatch(/2881 minutes.*limited to 2880.*bucket=hour/);
    // Unaligned: 2,880 minutes long but touching 2,881 minute buckets.
    const res2 = await h.getRaw(
      `/api/timeseries?project=1&bucket=minute&from=${iso(BASE + 1)}&to=${iso(BASE + 2_880 * MIN + 1)}`,
    );
    expect(res2.status).toBe(400);
    await res2.arrayBuffer();
    const bad = await h.getRaw('/api/timeseries?project=1&bucket=second');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('minute, hour, day');
  });
});
