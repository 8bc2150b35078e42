/** The metrics routes over a real server: params, shapes, paging, errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startup } from './helpers.js';
import { startHarness, type Harness } from './server.js';

let h: Harness;
const T0 = Date.UTC(2026, 11, 2, 10, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  h = await startHarness();
  // Project A (mp_live_test): session a1 with a resolved chain on `search`, 25 calls of `heavy`
  // (every 40 s, so no links) with big empty-ish responses; session a2 from another client.
  const a1 = (t: number, p: Parameters<typeof call>[0]) =>
    call({
      session_id: 's_a00000000001',
      client_name: 'claude-code',
      t: T0 + t - Date.UTC(2026, 11, 2, 10),
      ...p,
    });
  const items = [
    startup(
      [
        ['search', 400],
        ['heavy', 900],
        ['never', 250],
      ],
      { session_id: 's_a00000000001', client_name: 'claude-code' },
    ),
    a1(0, { tool: 'search', hash: 'aaaaaaaaaaaa', outcome: 'bad_args' }),
    a1(1_000, { tool: 'search', hash: 'bbbbbbbbbbbb', outcome: 'ok' }),
    ...Array.from({ length: 25 }, (_, i) =>
      a1(10_000 + i * 40_000, {
        tool: 'heavy',
        hash: 'cccccccccccc',
        response_bytes: 40_000,
        is_empty: i % 2 === 0,
        duration_ms: i < 10 ? 2500 : 50,
      }),
    ),
  ];
  expect(await h.ingest({ batch: items })).toBe(202);
  await h.ingest({
    batch: [
      call({
        session_id: 's_a00000000002',
        client_name: 'cursor',
        tool: 'search',
        t: 3_600_000 * 3,
        hash: 'aaaaaaaaaaaa',
        outcome: 'tool_error',
      }),
      call({
        session_id: 's_a00000000002',
        client_name: 'cursor',
        tool: 'search',
        t: 3_600_000 * 3 + 100,
        hash: 'dddddddddddd',
        outcome: 'crashed',
      }),
      call({
        session_id: 's_a00000000002',
        client_name: 'cursor',
        tool: 'fetch',
        t: 3_600_000 * 3 + 200,
      }),
    ],
  });
  // Project B: one call.
  await h.ingest(
    { batch: [call({ session_id: 's_b00000000001', tool: 'search', t: 0 })] },
    'mp_live_bbbbbbbb',
  );
});
afterAll(() => h.close());

describe('GET /api/summary', () => {
  it('all projects together by default; project by id or key prefix', async () => {
    expect((await h.get('summary')).calls).toBe(31);
    expect((await h.get('summary', { project: 'mp_live_test' })).calls).toBe(30);
    expect((await h.get('summary', { project: 2 })).calls).toBe(1);
    // A key never sent is not a project: 404 naming it, never zeros (issue 21).
    const nope = await h.getRaw('/api/summary?project=mp_live_nope');
    expect(nope.status).toBe(404);
    expect(((await nope.json()) as { error: string }).error).toContain("no project 'mp_live_nope'");
  });
  it('composes from/to/tool/client/session and echoes the filter', async () => {
    const s = await h.get('summary', {
      project: 1,
      from: iso(T0 + 3_600_000),
      client: 'cursor',
      tool: 'search',
    });
    expect(s).toMatchObject({ calls: 2, sessions: 1, retries: 1, retry_chains: 1, errors: 2 });
    expect(s.filter).toMatchObject({ project: 1, client: 'cursor', tool: 'search', to: null });
    expect(s.tools.map((t) => t.name)).toEqual(['search']);
  });
  it('rejects a bad time with 400', async () => {
    const res = await h.getRaw('/api/summary?from=yesterday');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/from/);
  });
});

describe('sessions', () => {
  it('lists, sorts, searches and pages', async () => {
    const all = await h.get('sessions');
    expect(all.total).toBe(3);
    expect(all.sessions.map((s) => s.id)).toEqual([
      's_a00000000002',
      's_a00000000001',
      's_b00000000001',
    ]);
    const byCalls = await h.get('sessions', { sort: 'calls', order: 'asc' });
    expect(byCalls.sessions.map((s) => s.calls)).toEqual([1, 3, 27]);
    const byCost = await h.get('sessions', { sort: 'cost' });
    expect(byCost.sessions[0]).toMatchObject({ id: 's_a00000000001', schema_bytes: 1550 });
    expect(byCost.sessions[0]!.cost_usd).toBeCloseTo(
      ((25 * 40_000 + 2 * 100 + 1550) / 4) * 3e-6,
      12,
    );
    const search = await h.get('sessions', { q: 'CURSOR' });
    expect(search.sessions.map((s) => s.id)).toEqual(['s_a00000000002']);
    const page2 = await h.get('sessions', {
      limit: 1,
      offset: 1,
      sort: 'first_seen',
      order: 'asc',
    });
    expect(page2).toMatchObject({ total: 3, offset: 1, limit: 1 });
    expect(page2.sessions).toHaveLength(1);
    const filtered = await h.get('sessions', { tool: 'heavy' });
    expect(filtered.sessions.map((s) => [s.id, s.calls])).toEqual([['s_a00000000001', 25]]);
    expect((await h.getRaw('/api/sessions?sort=nope')).status).toBe(400);
  });
  it('detail: calls in order with marks and reasons, chains, tools, startups; 404 for unknown', async () => {
    const d = await h.get('session', { id: 's_a00000000001' });
    expect(d.calls).toHaveLength(27);
    expect(d.calls[0]).toMatchObject({
      tool_name: 'search',
      retried: true,
      first_call_success: false,
      chain_id: d.calls[0]!.id,
    });
    expect(d.calls[1]).toMatchObject({
      retry_of_previous: true,
      first_call_success: true,
      prev_link: 'retry',
    });
    expect(d.chains).toHaveLength(1);
    expect(d.tools.map((t) => [t.tool, t.calls])).toEqual([
      ['heavy', 25],
      ['search', 2],
    ]);
    expect(d.startups).toHaveLength(1);
    expect((await h.getRaw('/api/sessions/s_nope')).status).toBe(404);
  });
  it('compare: two sessions side by side per tool', async () => {
    const c = await h.get('compare', { a: 's_a00000000001', b: 's_a00000000002' });
    expect(c.tools.map((t) => [t.tool, t.a?.calls ?? null, t.b?.calls ?? null])).toEqual([
      ['fetch', null, 1],
      ['heavy', 25, null],
      ['search', 2, 2],
    ]);
    expect((await h.getRaw('/api/compare?a=s_a00000000001')).status).toBe(400);
  });
});

describe('chains, tools, sizes, pairs, clients, insights', () => {
  it('chains: totals, resolved filter, per tool', async () => {
    const c = await h.get('chains');
    expect(c).toMatchObject({ total: 2, resolved: 1, unresolved: 1 });
    expect(c.by_tool).toEqual([{ tool: 'search', chains: 2, resolved: 1, unresolved: 1 }]);
    expect(c.chains.map((x) => x.session_id)).toEqual(['s_a00000000002', 's_a00000000001']);
    const unresolved = await h.get('chains', { resolved: 'false' });
    expect(unresolved.chains.map((x) => [x.final_outcome, x.calls.length])).toEqual([
      ['crashed', 2],
    ]);
  });
  it('tools: registered or called, dead and unregistered; tool page', async () => {
    const t = await h.get('tools', { project: 1 });
    expect(t.tools.map((x) => [x.name, x.calls, x.registered, x.dead, x.badges])).toEqual([
      ['heavy', 25, true, false, ['heavy_payload', 'low_first_call', 'slow', 'empty_results']],
      ['search', 4, true, false, []],
      ['fetch', 1, false, false, ['unregistered']],
      ['never', 0, true, true, ['never_used']],
    ]);
    const page = await h.get('tool', { name: 'search', project: 1 });
    expect(page.tool).toMatchObject({ name: 'search', calls: 4, retries: 2 });
    expect(page.chains.total).toBe(2);
    expect(page.pairs.outgoing).toEqual([
      { tool: 'fetch', count: 1 },
      { tool: 'heavy', count: 1 },
    ]);
    expect(page.latency.histogram.reduce((a, b) => a + b.count, 0)).toBe(4);
    expect((await h.getRaw('/api/tools/unknown')).status).toBe(404);
  });
  it('insights: hosted thresholds with the 20-call minimum, failures at any size, by impact', async () => {
    const i = await h.get('insights', { project: 1 });
    expect(i.min_calls).toBe(20);
    expect(i.insights.map((x) => `${x.severity}:${x.tool}:${x.kind}:${x.impact}`)).toEqual([
      'high:heavy:empty_results:39', // 13/25 = 52% > 20%: 13 × high 3 × harm 1
      'high:heavy:low_first_call_success:39', // 12/25 = 48% < 50%: 13 failed × 3
      'high:heavy:heavy_payload:37.5', // avg 40,000 > 30,000: 25 calls × 3 × 0.5
      'high:heavy:slow_calls:30', // 10/25 = 40% > 30%
      'low:search:crashes:4', // 1 of 4 calls, below the 20-call minimum all the same
      'low:search:error_rate:3',
      'low:search:bad_args_streak:2',
      'low:never:dead_tool:0',
    ]);
    expect(i.insights.find((x) => x.kind === 'crashes')).toMatchObject({
      title: 'search crashed on 1 of 4 (25%) calls',
      affected: 1,
      calls: 4,
    });
  });
  it('sizes: histogram, tokens, cost, schema', async () => {
    const s = await h.get('sizes', { project: 1 });
    expect(s.response.units).toBe(25 * 40_000 + 5 * 100);
    expect(s.response.tokens).toBe(s.response.units / 4);
    expect(s.response.histogram.map((b) => [b.label, b.count]).filter(([, n]) => n)).toEqual([
      ['100–200', 5],
      ['20K–50K', 25],
    ]);
    expect(s.schema.bytes).toBe(1550);
    expect(s.schema.tools.map((t) => t.name)).toEqual(['heavy', 'search', 'never']);
    expect(s.cost.sessions).toBe(2);
    expect(s.cost.cost_usd).toBeCloseTo(((1_000_500 + 1550) / 4) * 3e-6, 12);
  });
  it('pairs and clients', async () => {
    const p = await h.get('pairs', { project: 1 });
    expect(p.pairs).toEqual([
      { from: 'search', to: 'fetch', count: 1, share: 0.5 },
      { from: 'search', to: 'heavy', count: 1, share: 0.5 },
    ]);
    const c = await h.get('clients');
    expect(c.clients.map((x) => [x.client, x.calls, x.sessions])).toEqual([
      ['claude-code', 27, 1],
      ['cursor', 3, 1],
      ['test-client', 1, 1],
    ]);
  });
});

describe('timeseries', () => {
  it('gap-filled hours, with FCS numerator/denominator and p95', async () => {
    const ts = await h.get('timeseries', {
      project: 1,
      bucket: 'hour',
      from: iso(T0),
      to: iso(T0 + 4 * 3_600_000),
    });
    expect(ts.points.map((p) => [p.start?.slice(11, 13), p.calls])).toEqual([
      ['10', 27],
      ['11', 0],
      ['12', 0],
      ['13', 3],
    ]);
    expect(ts.points[1]).toMatchObject({
      p95_ms: null,
      first_call_success: { rate: null, successes: 0, calls: 0 },
    });
  });
  it('days aligned to a time zone; automatic bucket; 400 for too many buckets', async () => {
    const ts = await h.get('timeseries', { project: 1, bucket: 'day', tz: -720 });
    expect(ts.points.map((p) => [p.start, p.calls])).toEqual([
      ['2026-12-01T12:00:00.000Z', 27],
      ['2026-12-02T12:00:00.000Z', 3],
    ]);
    expect((await h.get('timeseries', { project: 1 })).bucket).toBe('hour');
    expect((await h.getRaw('/api/timeseries?bucket=hour&from=2000-01-01')).status).toBe(400);
    expect((await h.getRaw('/api/timeseries?tz=abc')).status).toBe(400);
  });
});

describe('calls behind a number, and pricing', () => {
  it('totals from the rollups equal the calls listed, for outcomes, tools and ranges', async () => {
    const conditions: Record<string, string>[] = [
      {},
      { outcome: 'ok' },
      { outcome: 'empty' },
      { outcome: 'bad_args' },
      { outcome: 'tool_error' },
      { outcome: 'crashed' },
      { errors: 'true' },
      { errors: 'false' },
      { outcome: 'ok', errors: 'true' },
    ];
    const views: Record<string, string | number>[] = [
      {},
      { tool: 'search' },
      { tool: 'fetch', project: 1 },
      { from: '2026-12-01T10:30:00.000Z' },
      { client: 'cursor', to: '2026-12-02T00:00:00.000Z' },
    ];
    for (const view of views) {
      for (const c of conditions) {
        const page = await h.get('metricsCalls', { ...view, ...c, limit: 1000 });
        expect(page.next_cursor, JSON.stringify({ view, c })).toBeNull();
        expect(page.total, JSON.stringify({ view, c })).toBe(page.calls.length);
      }
    }
  });

  it('filters by metric conditions and pages with a cursor', async () => {
    const retried = await h.get('metricsCalls', { retried: 'true' });
    expect(retried.calls.map((c) => c.args_hash.slice(0, 1))).toEqual(['a', 'a']);
    const empty = await h.get('metricsCalls', { outcome: 'empty', limit: 5 });
    expect(empty.calls).toHaveLength(5);
    expect(empty.calls.every((c) => c.outcome_class === 'empty')).toBe(true);
    // The total counts every page, not the one returned.
    expect(empty.total).toBe(13);
    const byText = await h.get('metricsCalls', { q: 'FETCH' });
    expect(byText.calls.map((c) => c.tool_name)).toEqual(['fetch']);
    expect(byText.total).toBe(1);
    const crashedText = await h.get('metricsCalls', { q: 'crash' });
    expect(crashedText.calls.every((c) => c.outcome === 'crashed')).toBe(true);
    const next = await h.get('metricsCalls', {
      outcome: 'empty',
      limit: 5,
      cursor: empty.next_cursor,
    });
    expect(next.calls[0]!.started_ms).toBeLessThan(empty.calls.at(-1)!.started_ms);
    const slow = await h.get('metricsCalls', { latency: 'over_2000', limit: 100 });
    expect(slow.calls).toHaveLength(10);
    expect(slow.next_cursor).toBeNull();
    const pair = await h.get('metricsCalls', { from_tool: 'search', tool: 'fetch' });
    expect(pair.calls).toHaveLength(1);
    const chain = await h.get('chains', { resolved: 'true' });
    const members = await h.get('metricsCalls', { chain: chain.chains[0]!.id });
    expect(members.calls).toHaveLength(2);
    expect((await h.getRaw('/api/metrics/calls?outcome=great')).status).toBe(400);
    expect((await h.getRaw('/api/metrics/calls?latency=fast')).status).toBe(400);
  });
  it('cost per million tokens: default $3, stored setting, validated', async () => {
    expect(await h.get('pricing')).toEqual({
      usd_per_million_tokens: 3,
      default_usd_per_million_tokens: 3,
    });
    expect(await h.put('setPricing', { usd_per_million_tokens: 15 })).toMatchObject({
      usd_per_million_tokens: 15,
    });
    const s = await h.get('summary', { project: 2 });
    expect(s.cost.usd_per_million_tokens).toBe(15);
    expect(s.cost.response_cost_usd).toBeCloseTo((100 / 4) * 15e-6, 12);
    expect(await h.put('setPricing', { usd_per_million_tokens: -1 })).toMatchObject({
      error: expect.stringMatching(/usd_per_million_tokens/),
    });
    await h.put('setPricing', { usd_per_million_tokens: 3 });
  });
});
