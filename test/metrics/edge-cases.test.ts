/**
 * The edge cases real traffic produces, each through the real ingest endpoint and the metrics
 * routes (issue 4: late and out-of-order batches, midnight, equal instants, mixed offsets, the
 * 30 s boundary, unhashable arguments, several startups per session, Go's omitted fields).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMetricsMaintainer } from '../../src/store/metrics/maintain.js';
import { call, snapshot, startup } from './helpers.js';
import { startHarness, type Harness } from './server.js';
import { connectionOf } from '../../src/store/connection.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.close());

const batch = (...items: unknown[]) => ({ batch: items });
const S = 's_0123456789ab';
const at = (iso: string, hash: string, more: Record<string, unknown> = {}) =>
  call({ session_id: S, t: iso, hash, ...more });

/** Facts kept at ingest must equal a rebuild from raw rows, whatever arrived when. */
function expectExact() {
  const before = snapshot(h.store);
  createMetricsMaintainer(connectionOf(h.store)).rebuildAll();
  expect(snapshot(h.store)).toEqual(before);
}

describe('edge cases through the real ingest path', () => {
  it('late and out-of-order batches: chains come from started_at, not arrival', async () => {
    const calls = [
      at('2026-12-02T10:00:00.000Z', 'aaaaaaaaaaaa', { outcome: 'bad_args' }),
      at('2026-12-02T10:00:05.000Z', 'bbbbbbbbbbbb', { outcome: 'tool_error' }),
      at('2026-12-02T10:00:09.000Z', 'cccccccccccc'),
    ];
    // Newest first, one request each.
    for (const c of [...calls].reverse()) expect(await h.ingest(batch(c))).toBe(202);
    const d = await h.get('session', { id: S });
    expect(d.calls.map((c) => c.started_at.slice(17))).toEqual(['00.000Z', '05.000Z', '09.000Z']);
    expect(d.calls.map((c) => [c.link, c.retried, c.first_call_success])).toEqual([
      ['retry', true, false],
      ['retry', true, false],
      ['none', false, true],
    ]);
    expect(d.chains).toHaveLength(1);
    expect(d.chains[0]).toMatchObject({ call_count: 3, retries: 2, resolved: true });
    expectExact();

    // A late call lands in the middle with the first call's arguments: still two retries,
    // now four calls; then one far in the past starts its own run.
    await h.ingest(batch(at('2026-12-02T10:00:02.000Z', 'aaaaaaaaaaaa')));
    await h.ingest(batch(at('2026-12-02T09:00:00.000Z', 'aaaaaaaaaaaa')));
    const s = await h.get('summary', { session: S });
    expect(s).toMatchObject({ calls: 5, retries: 2, repeats: 1, retry_chains: 1 });
    expect(s.first_call_success).toEqual({ rate: 2 / 5, successes: 2, calls: 5 });
    expectExact();
  });

  it('a session crossing midnight: one session, one chain across the day boundary', async () => {
    await h.ingest(
      batch(
        at('2026-12-02T23:59:50.000Z', 'aaaaaaaaaaaa', {
          outcome: 'tool_error',
          duration_ms: 2500,
        }),
        at('2026-12-03T00:00:10.000Z', 'bbbbbbbbbbbb'),
      ),
    );
    const all = await h.get('summary');
    expect(all).toMatchObject({ calls: 2, sessions: 1, retries: 1, retry_chains: 1 });
    const day2 = await h.get('summary', { from: '2026-12-03' });
    expect(day2).toMatchObject({ calls: 1, sessions: 1, retries: 0, retry_chains: 0 });
    expect(day2.first_call_success.successes).toBe(1);
    const day1 = await h.get('summary', { from: '2026-12-02', to: '2026-12-03' });
    expect(day1).toMatchObject({ calls: 1, sessions: 1, retries: 1, retry_chains: 1 });
    const list = await h.get('sessions');
    expect(list.sessions).toEqual([
      expect.objectContaining({ id: S, calls: 2, duration_ms: 20_000 + 0 + 10 }),
    ]);
    const ts = await h.get('timeseries', { bucket: 'day' });
    expect(ts.points.map((p) => [p.start?.slice(0, 10), p.calls])).toEqual([
      ['2026-12-02', 1],
      ['2026-12-03', 1],
    ]);
  });

  it('equal timestamps: arrival order breaks the tie, in one request or across two', async () => {
    const t = '2026-12-02T10:00:00.000Z';
    await h.ingest(batch(at(t, 'aaaaaaaaaaaa'), at(t, 'bbbbbbbbbbbb')));
    await h.ingest(
      batch(
        at(t, 'cccccccccccc', { tool_name: 'other' }),
        at(t, 'cccccccccccc', { tool_name: 'other' }),
      ),
    );
    const d = await h.get('session', { id: S });
    expect(d.calls.map((c) => [c.tool_name, c.args_hash.slice(0, 1), c.link])).toEqual([
      ['search', 'a', 'retry'],
      ['search', 'b', 'none'],
      ['other', 'c', 'repeat'],
      ['other', 'c', 'none'],
    ]);
    expect(d.calls.map((c) => c.id)).toEqual([...d.calls.map((c) => c.id)].sort((a, b) => a - b));
    expectExact();
  });

  it('mixed offsets: +02:00 and Z are compared as instants', async () => {
    // 12:00:10+02:00 is 10:00:10Z: ten seconds after the first call, so a retry — although
    // as text it sorts after "10:00:20Z".
    await h.ingest(
      batch(
        at('2026-12-02T10:00:00Z', 'aaaaaaaaaaaa'),
        at('2026-12-02T12:00:10+02:00', 'bbbbbbbbbbbb'),
        at('2026-12-02T10:00:20.0000000+00:00', 'bbbbbbbbbbbb'),
      ),
    );
    const d = await h.get('session', { id: S });
    expect(d.calls.map((c) => [c.started_at, c.link])).toEqual([
      ['2026-12-02T10:00:00Z', 'retry'],
      ['2026-12-02T12:00:10+02:00', 'repeat'],
      ['2026-12-02T10:00:20.0000000+00:00', 'none'],
    ]);
    expect(d.calls[0]!.next_gap_ms).toBe(10_000);
  });

  it('the 30,000 ms boundary: exactly 30 s is a retry, 30.001 s is not', async () => {
    await h.ingest(
      batch(
        at('2026-12-02T10:00:00.000Z', 'aaaaaaaaaaaa'),
        at('2026-12-02T10:00:30.000Z', 'bbbbbbbbbbbb'),
        at('2026-12-02T10:01:00.001Z', 'cccccccccccc'),
      ),
    );
    const d = await h.get('session', { id: S });
    expect(d.calls.map((c) => [c.link, c.retried, c.first_call_success])).toEqual([
      ['retry', true, false],
      ['none', false, true],
      ['none', false, true],
    ]);
    expect(d.calls[1]!.next_gap_ms).toBe(30_001);
  });

  it('000000000000: the link is unknown — not a retry, no chain, first-call success kept', async () => {
    await h.ingest(
      batch(
        at('2026-12-02T10:00:00Z', '000000000000'),
        at('2026-12-02T10:00:01Z', 'bbbbbbbbbbbb'),
        at('2026-12-02T10:00:02Z', '000000000000'),
      ),
    );
    const s = await h.get('summary');
    expect(s).toMatchObject({ calls: 3, retries: 0, unknown_links: 2, retry_chains: 0 });
    expect(s.first_call_success.successes).toBe(3);
    const d = await h.get('session', { id: S });
    expect(d.calls[0]!.reason).toMatch(/could not be compared/);
    expect(d.chains).toEqual([]);
  });

  it('several startups in one session: the latest defines the tool set and the schema cost', async () => {
    await h.ingest(
      batch(
        startup(
          [
            ['search', 300],
            ['old_tool', 100],
          ],
          { session_id: S },
        ),
      ),
    );
    await h.ingest(
      batch(
        startup(
          [
            ['search', 320],
            ['fetch', 200],
          ],
          { session_id: S, client_name: 'second' },
        ),
      ),
    );
    await h.ingest(batch(at('2026-12-02T10:00:00Z', 'aaaaaaaaaaaa')));
    const s = await h.get('summary');
    expect(s.tools.map((t) => [t.name, t.registered, t.schema_bytes, t.dead])).toEqual([
      ['search', true, 320, false],
      ['fetch', true, 200, true],
    ]);
    expect(s.schema_bytes).toBe(520);
    expect(s.cost.schema_units).toBe(520);
    const d = await h.get('session', { id: S });
    expect(d.startups.map((x) => x.schema_bytes)).toEqual([400, 520]);
    expect(d.session.schema_bytes).toBe(520);
  });

  it("Go's omitted fields: is_empty false, duration and bytes 0, tools []", async () => {
    expect(await h.capture('go-style')).toBe(202);
    const s = await h.get('summary');
    expect(s).toMatchObject({
      calls: 3,
      sessions: 1,
      retries: 1,
      retry_chains: 1,
      registered_tools: 2,
    });
    expect(s.outcomes).toEqual({ ok: 1, empty: 1, bad_args: 0, tool_error: 1, crashed: 0 });
    const get = s.tools.find((t) => t.name === 'get_order')!;
    expect(get).toMatchObject({
      calls: 2,
      retries: 1,
      first_call_successes: 0,
      p50_ms: 0,
      p95_ms: 7,
    });
    await h.ingest(
      batch({ v: 1, type: 'startup', session_id: 's_9b0c1d2e3f4a', client_name: 'claude-code' }),
    );
    const after = await h.get('summary');
    expect(after.registered_tools).toBe(0); // the latest startup registered nothing
  });

  it('the .NET capture: 7 fraction digits, +00:00 and +02:00, an unhashable call', async () => {
    expect(await h.capture('dotnet-style')).toBe(202);
    const d = await h.get('session', { id: 's_0a1b2c3d4e5f' });
    expect(d.calls.map((c) => [c.link, c.next_gap_ms])).toEqual([
      ['unknown', 10_377],
      ['none', null],
    ]);
  });

  it('deleting calls (clear, retention) rebuilds the derived data exactly', async () => {
    await h.ingest(
      batch(
        at('2026-12-02T10:00:00Z', 'aaaaaaaaaaaa'),
        at('2026-12-02T10:00:01Z', 'bbbbbbbbbbbb'),
        at('2026-12-02T10:00:02Z', 'cccccccccccc'),
      ),
    );
    expect((await h.get('summary')).retries).toBe(2);
    connectionOf(h.store).prepare("DELETE FROM calls WHERE args_hash = 'bbbbbbbbbbbb'").run();
    const s = await h.get('summary');
    expect(s).toMatchObject({ calls: 2, retries: 1, retry_chains: 1 });
    expectExact();
    connectionOf(h.store).prepare('DELETE FROM projects').run();
    expect(await h.get('summary')).toMatchObject({
      calls: 0,
      sessions: 0,
      tools: [],
    });
    expect((await h.get('summary')).first_call_success.rate).toBeNull();
  });
});
