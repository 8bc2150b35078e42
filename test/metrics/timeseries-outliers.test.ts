/**
 * One call with a wrong clock — 1970 (never set) or 2099 (ahead) — must not stretch the
 * series over decades or turn it into an error: the automatic range follows the plausibly
 * dated calls, and the answer says what it left out and why.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call } from './helpers.js';
import { startHarness, type Harness } from './server.js';

let h: Harness;
const HOUR = 3_600_000;

beforeAll(async () => {
  h = await startHarness();
  const batch = [0, 1, 2, 5, 9].map((t) => call({ t: t * HOUR, session_id: 's_good' }));
  expect(await h.ingest({ batch })).toBe(202);
});
afterAll(() => h?.close());

it('a single 1970 call leaves the range where the data is, and is flagged', async () => {
  expect(
    await h.ingest({ batch: [call({ t: '1970-01-01T00:00:05Z', session_id: 's_unset' })] }),
  ).toBe(202);
  for (const q of ['', '?bucket=day', '?bucket=hour']) {
    const s = await h.get('timeseries', q.slice(1));
    expect(s.from!.startsWith('2026-12-0'), q).toBe(true);
    expect(
      s.points.reduce((a, p) => a + p.calls, 0),
      q,
    ).toBe(5);
    expect(s.outliers.past).toMatchObject({ calls: 1, first: '1970-01-01T00:00:05.000Z' });
    expect(s.outliers.note).toBe('1 call dated 1970 — clock not set? Not shown in this chart.');
  }
  expect((await h.get('timeseries')).bucket).toBe('hour');
  // An explicit range is the user's: nothing is left out of it, nothing is flagged.
  const then = await h.get('timeseries', { from: '1970-01-01', to: '1970-01-02' });
  expect(then.outliers.note).toBeNull();
  expect(then.points.reduce((a, p) => a + p.calls, 0)).toBe(1);
});

it('calls dated in the future are left out and flagged, in the series and the sessions list', async () => {
  expect(
    await h.ingest({
      batch: [
        call({ t: '2099-01-01T00:00:00Z', session_id: 's_ahead' }),
        call({ t: '2099-03-01T00:00:00Z', session_id: 's_ahead' }),
      ],
    }),
  ).toBe(202);
  const s = await h.get('timeseries', { bucket: 'day' });
  expect(s.to!.startsWith('2026-12-0')).toBe(true);
  expect(s.outliers.future).toMatchObject({ calls: 2, first: '2099-01-01T00:00:00.000Z' });
  expect(s.outliers.note).toBe(
    '1 call dated 1970 — clock not set? 2 calls dated in the future (2099) — clock ahead? Not shown in this chart.',
  );
  const { sessions } = await h.get('sessions');
  const suspect = Object.fromEntries(sessions.map((r) => [r.id, r.clock_suspect]));
  expect(suspect).toEqual({ s_ahead: 'future', s_unset: 'past', s_good: null });
  const one = await h.get('session', { id: 's_ahead' });
  expect(one.session.clock_suspect).toBe('future');
});

it('only badly dated calls: the chart shows them, still flagged', async () => {
  const only = await h.get('timeseries', { session: 's_unset' });
  expect(only.points.reduce((a, p) => a + p.calls, 0)).toBe(1);
  expect(only.outliers.note).toBe('1 call dated 1970 — clock not set?');
});

it('a call dated in year 0099 is stored in 0099 — started_at and started_ms agree — and flagged', async () => {
  const started_at = '0099-12-31T23:59:59.250Z';
  expect(await h.ingest({ batch: [call({ t: started_at, session_id: 's_year99' })] })).toBe(202);
  const { calls } = await h.get('calls', { session: 's_year99' });
  expect(calls).toHaveLength(1);
  expect(calls[0]!.started_at).toBe(started_at);
  expect(new Date(calls[0]!.started_ms).toISOString()).toBe(started_at);
  const one = await h.get('session', { id: 's_year99' });
  expect(one.session.clock_suspect).toBe('past');
});
