/** The pure definitions (src/metrics), each on hand-computed data. */
import { describe, expect, it } from 'vitest';
import { firstCallSuccessOf, outcomeClass, rate, totalStats } from '../../src/metrics/aggregate.js';
import { buildChains } from '../../src/metrics/chains.js';
import { failureSeverity } from '../../src/metrics/failure-insights.js';
import { computeInsights, type InsightInput } from '../../src/metrics/insights.js';
import {
  fineBucket,
  fineBucketRange,
  histogramOf,
  latencyBucketIndex,
  locateRank,
  octave,
  octaveRange,
  p95Label,
  percentileFromCounts,
  percentiles,
  valueAtRank,
} from '../../src/metrics/latency.js';
import { deriveSession, LINK, linkKind } from '../../src/metrics/links.js';
import { statRowsOf, type FactCall } from '../../src/metrics/report.js';
import {
  costUsd,
  sizeBucket,
  sizeBucketLabel,
  sizeBucketRange,
  sizeHistogram,
  tokensOf,
} from '../../src/metrics/sizes.js';
import { bucketStart, bucketStarts, splitByDay } from '../../src/metrics/time.js';

const A = 'aaaaaaaaaaaa';
const B = 'bbbbbbbbbbbb';
const Z = '000000000000';

let nextId = 1;
const c = (
  t: number,
  hash: string,
  more: Partial<{ tool: string; outcome: string; empty: boolean; id: number }> = {},
) => ({
  id: more.id ?? nextId++,
  tool_name: more.tool ?? 'search',
  started_ms: t,
  args_hash: hash,
  outcome: more.outcome ?? 'ok',
  is_empty: more.empty ?? false,
});

describe('the link rule', () => {
  it('different hash within 30 s is a retry; same hash a repeat; no next call none', () => {
    expect(linkKind({ started_ms: 0, args_hash: A }, { started_ms: 5_000, args_hash: B })).toBe(
      'retry',
    );
    expect(linkKind({ started_ms: 0, args_hash: A }, { started_ms: 5_000, args_hash: A })).toBe(
      'repeat',
    );
    expect(linkKind({ started_ms: 0, args_hash: A }, undefined)).toBe('none');
  });

  it('exactly 30,000 ms start to start still links; 30,001 does not', () => {
    expect(linkKind({ started_ms: 0, args_hash: A }, { started_ms: 30_000, args_hash: B })).toBe(
      'retry',
    );
    expect(linkKind({ started_ms: 0, args_hash: A }, { started_ms: 30_001, args_hash: B })).toBe(
      'none',
    );
    expect(linkKind({ started_ms: 0, args_hash: A }, { started_ms: 30_000, args_hash: A })).toBe(
      'repeat',
    );
  });

  it('000000000000 on either side cannot be compared: unknown, never a retry', () => {
    expect(linkKind({ started_ms: 0, args_hash: Z }, { started_ms: 1, args_hash: B })).toBe(
      'unknown',
    );
    expect(linkKind({ started_ms: 0, args_hash: A }, { started_ms: 1, args_hash: Z })).toBe(
      'unknown',
    );
    expect(linkKind({ started_ms: 0, args_hash: Z }, { started_ms: 1, args_hash: Z })).toBe(
      'unknown',
    );
    // …but only within the window.
    expect(linkKind({ started_ms: 0, args_hash: Z }, { started_ms: 40_000, args_hash: B })).toBe(
      'none',
    );
  });
});

describe('deriveSession', () => {
  it('links only same-tool calls; other tools in between do not break a run', () => {
    const calls = [c(0, A, { id: 1 }), c(1000, A, { id: 2, tool: 'other' }), c(2000, B, { id: 3 })];
    const f = deriveSession(calls);
    expect(f.get(1)).toMatchObject({
      link: LINK.retry,
      fcs: 0,
      chain: 1,
      run_id: 1,
      prev_tool: null,
    });
    expect(f.get(2)).toMatchObject({ link: LINK.none, fcs: 1, chain: 0, prev_tool: 'search' });
    expect(f.get(3)).toMatchObject({
      prev_link: LINK.retry,
      fcs: 1,
      chain: 1,
      run_id: 1,
      prev_tool: 'other',
    });
  });

  it('orders by started_at, not by id; equal instants fall back to arrival (id)', () => {
    // id 7 arrived first but started later; ids 8 and 9 share an instant.
    const calls = [c(5000, B, { id: 7 }), c(1000, A, { id: 9 }), c(1000, A, { id: 8 })];
    const f = deriveSession(calls);
    expect(f.get(8)).toMatchObject({ link: LINK.repeat, run_id: 8 }); // 8 → 9 same hash, 0 ms
    expect(f.get(9)).toMatchObject({ link: LINK.retry, prev_link: LINK.repeat, fcs: 0 }); // 9 → 7
    expect(f.get(7)).toMatchObject({
      link: LINK.none,
      prev_link: LINK.retry,
      fcs: 1,
      chain: 1,
      run_id: 8,
    });
  });

  it('first-call success: ok, not empty, not retried — a retry can itself succeed', () => {
    const calls = [
      c(0, A, { id: 1, outcome: 'bad_args' }),
      c(1000, B, { id: 2, empty: true }),
      c(2000, A, { id: 3 }),
      c(60_000, A, { id: 4, outcome: 'crashed' }),
    ];
    const f = deriveSession(calls);
    expect([1, 2, 3, 4].map((id) => f.get(id)!.fcs)).toEqual([0, 0, 1, 0]);
    expect(f.get(3)!.prev_link).toBe(LINK.retry); // 3 is a retry of 2 and a first-call success
  });

  it('a run of repeats or unknown links only is not a chain', () => {
    const f = deriveSession([
      c(0, A, { id: 1 }),
      c(1000, A, { id: 2 }),
      c(2000, Z, { id: 3 }),
      c(3000, B, { id: 4 }),
    ]);
    expect([...f.values()].map((x) => x.chain)).toEqual([0, 0, 0, 0]);
    expect([...f.values()].map((x) => x.link)).toEqual([
      LINK.repeat,
      LINK.unknown,
      LINK.unknown,
      LINK.none,
    ]);
  });

  it('a gap over 30 s splits runs; each run is its own chain', () => {
    const f = deriveSession([
      c(0, A, { id: 1 }),
      c(1000, B, { id: 2 }),
      c(40_000, A, { id: 3 }),
      c(41_000, B, { id: 4 }),
    ]);
    expect([1, 2, 3, 4].map((id) => f.get(id)!.run_id)).toEqual([1, 1, 3, 3]);
    expect([1, 2, 3, 4].map((id) => f.get(id)!.chain)).toEqual([1, 1, 1, 1]);
  });
});

describe('chains', () => {
  const member = (id: number, t: number, link: number, outcome = 'ok', empty = false, run = 1) => ({
    id,
    session_id: 's',
    tool_name: 'search',
    started_ms: t,
    duration_ms: 10,
    outcome,
    is_empty: empty,
    args_hash: A,
    link,
    run_id: run,
    chain: 1,
  });
  it('resolved when the last call is ok and not empty; links listed in order', () => {
    const [chain] = buildChains([
      member(1, 0, LINK.retry, 'bad_args'),
      member(2, 500, LINK.repeat),
      member(3, 900, LINK.none),
    ]);
    expect(chain).toMatchObject({
      id: 1,
      call_count: 3,
      retries: 1,
      repeats: 1,
      resolved: true,
      final_outcome: 'ok',
    });
    expect(chain!.links.map((l) => [l.from, l.to, l.kind, l.gap_ms])).toEqual([
      [1, 2, 'retry', 500],
      [2, 3, 'repeat', 400],
    ]);
    expect(chain!.ended_ms).toBe(910);
  });
  it('unresolved when the last call failed or was empty', () => {
    expect(
      buildChains([member(1, 0, LINK.retry), member(2, 5, LINK.none, 'tool_error')])[0]!.resolved,
    ).toBe(false);
    expect(
      buildChains([member(1, 0, LINK.retry), member(2, 5, LINK.none, 'ok', true)])[0]!
        .final_outcome,
    ).toBe('empty');
  });
});

describe('latency', () => {
  it('nearest-rank percentiles are observed values', () => {
    const h = histogramOf([0, 1, 1, 1, 5, 5, 3004]);
    expect(percentiles(h)).toEqual({ p50_ms: 1, p95_ms: 3004, p99_ms: 3004 });
    expect(percentileFromCounts(histogramOf([10, 20, 30, 40]), 0.5)).toBe(20); // rank ⌈2⌉
    expect(percentileFromCounts(histogramOf([10, 20, 30, 40]), 0.51)).toBe(30); // rank ⌈2.04⌉
    expect(
      percentileFromCounts(histogramOf(Array.from({ length: 100 }, (_, i) => i + 1)), 0.95),
    ).toBe(95);
    expect(percentiles([])).toEqual({ p50_ms: null, p95_ms: null, p99_ms: null });
  });
  it('hosted buckets and the p95 label (the bucket upper edge)', () => {
    expect([0, 99, 100, 499, 500, 1999, 2000, 86_400_000].map(latencyBucketIndex)).toEqual([
      0, 0, 1, 1, 2, 2, 3, 3,
    ]);
    expect([99, 100, 499, 500, 1999, 2000].map(p95Label)).toEqual([
      '100ms',
      '500ms',
      '500ms',
      '2s',
      '2s',
      '>2s',
    ]);
    expect(p95Label(null)).toBeNull();
  });
  it('fine buckets cover every duration exactly once, in order', () => {
    let prev = -1;
    let prevHi = 0;
    for (let d = 0; d < 200_000; d++) {
      const b = fineBucket(d);
      const [lo, hi] = fineBucketRange(b);
      if (d < lo || d >= hi || b < prev)
        throw new Error(`duration ${d} → bucket ${b} [${lo}, ${hi})`);
      if (b !== prev) {
        expect(lo).toBe(prevHi); // buckets tile the line with no gap
        prevHi = hi;
      }
      prev = b;
    }
    const [lo, hi] = fineBucketRange(fineBucket(86_400_000));
    expect(86_400_000).toBeGreaterThanOrEqual(lo);
    expect(86_400_000).toBeLessThan(hi);
    expect((hi - lo) / lo).toBeLessThanOrEqual(1 / 16);
    expect(fineBucket(32)).toBe(32);
    expect(fineBucketRange(32)).toEqual([32, 34]);
  });
  it('octaves: bit length, integer-only', () => {
    expect([0, 1, 2, 3, 4, 1023, 1024, 86_400_000].map(octave)).toEqual([
      0, 1, 2, 2, 3, 10, 11, 27,
    ]);
    expect([0, 1, 11].map(octaveRange)).toEqual([
      [0, 1],
      [1, 2],
      [1024, 2048],
    ]);
  });
  it('locating a rank in a coarse histogram then reading the bucket gives the exact value', () => {
    const values = [1, 2, 3, 40, 41, 42, 43, 900, 901, 5000];
    const fine = new Map<number, number>();
    for (const v of values) fine.set(fineBucket(v), (fine.get(fineBucket(v)) ?? 0) + 1);
    const sorted = [...fine.entries()].sort((a, b) => a[0] - b[0]);
    for (const p of [0.1, 0.5, 0.9, 0.95, 0.99]) {
      const at = locateRank(sorted, p)!;
      const [lo, hi] = fineBucketRange(at.bucket);
      const inside = histogramOf(values.filter((v) => v >= lo && v < hi));
      expect(valueAtRank(inside, at.rank)).toBe(percentileFromCounts(histogramOf(values), p));
    }
  });
});

describe('sizes, tokens and cost', () => {
  it('log buckets 0, 1–2, 2–5, 5–10, …', () => {
    expect([0, 1, 2, 4, 5, 9, 10, 19, 20, 99, 100, 2_147_483_647].map(sizeBucket)).toEqual([
      0, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 29,
    ]);
    expect(sizeBucketRange(0)).toEqual({ min: 0, max: 1 });
    expect(sizeBucketRange(7)).toEqual({ min: 100, max: 200 });
    expect([0, 1, 4, 10, 13].map(sizeBucketLabel)).toEqual([
      '0',
      '1–2',
      '10–20',
      '1K–2K',
      '10K–20K',
    ]);
    expect(sizeBucketLabel(30)).toBe('≥5G');
  });
  it('tokens ≈ units ÷ 4; $3 per million tokens by default', () => {
    expect(tokensOf(1798)).toBe(449.5);
    expect(costUsd(4_000_000, 3)).toBe(3);
    expect(costUsd(400, 3)).toBeCloseTo(0.0003, 12);
  });
  it('histograms are gap-filled between the smallest and largest bucket present', () => {
    const h = sizeHistogram(
      new Map([
        [1, { count: 2, units: 2 }],
        [4, { count: 1, units: 12 }],
      ]),
    );
    expect(h.map((b) => [b.bucket, b.count])).toEqual([
      [1, 2],
      [2, 0],
      [3, 0],
      [4, 1],
    ]);
    expect(sizeHistogram(new Map())).toEqual([]);
  });
});

describe('outcomes and rates', () => {
  it('five classes partition calls; empties count only with ok', () => {
    expect(outcomeClass('ok', false)).toBe(0);
    expect(outcomeClass('ok', true)).toBe(1);
    expect(outcomeClass('tool_error', true)).toBe(3);
  });
  it('no calls → no rate', () => {
    expect(rate(0, 0)).toBeNull();
    expect(firstCallSuccessOf(totalStats([]))).toEqual({ rate: null, successes: 0, calls: 0 });
  });
  it('stat rows of calls fold back to the same counts', () => {
    const calls = [
      { link: LINK.retry, outcome: 'ok', is_empty: 0, duration_ms: 3000, response_bytes: 5 },
      { link: LINK.none, outcome: 'ok', is_empty: 0, duration_ms: 50, response_bytes: 7 },
    ].map((x, i) => ({
      ...x,
      id: i,
      tool_name: 't',
      client_name: 'c',
      chain: 1,
      prev_link: i ? LINK.retry : 0,
    }));
    const s = totalStats(statRowsOf(calls as unknown as FactCall[]));
    expect(s).toMatchObject({
      calls: 2,
      first_call_successes: 1,
      retries: 1,
      retry_chains: 1,
      response_units: 12,
    });
    expect(s.latency).toEqual([1, 0, 0, 1]);
  });
});

describe('insights', () => {
  const tool = (p: Partial<InsightInput>): InsightInput => ({
    name: 't',
    calls: 100,
    first_call_successes: 100,
    empty: 0,
    slow: 0,
    response_units: 100,
    registered: true,
    schema_bytes: 100,
    dead: false,
    ...p,
  });
  it('hosted thresholds, strict comparisons, medium and high', () => {
    expect(computeInsights([tool({ first_call_successes: 70 })])).toEqual([]);
    expect(computeInsights([tool({ first_call_successes: 69 })])[0]).toMatchObject({
      kind: 'low_first_call_success',
      severity: 'medium',
      size: 31,
    });
    expect(computeInsights([tool({ first_call_successes: 49 })])[0]!.severity).toBe('high');
    expect(computeInsights([tool({ first_call_successes: 50 })])[0]!.severity).toBe('medium');
    expect(computeInsights([tool({ empty: 5 })])).toEqual([]);
    expect(computeInsights([tool({ empty: 6 })])[0]).toMatchObject({
      kind: 'empty_results',
      severity: 'medium',
    });
    expect(computeInsights([tool({ empty: 21 })])[0]!.severity).toBe('high');
    expect(computeInsights([tool({ slow: 10 })])).toEqual([]);
    expect(computeInsights([tool({ slow: 11 })])[0]).toMatchObject({
      kind: 'slow_calls',
      severity: 'medium',
    });
    expect(computeInsights([tool({ slow: 31 })])[0]!.severity).toBe('high');
    expect(computeInsights([tool({ response_units: 1_000_000 })])).toEqual([]); // avg 10,000: not above
    expect(computeInsights([tool({ response_units: 1_000_100 })])[0]).toMatchObject({
      kind: 'heavy_payload',
      severity: 'medium',
    });
    expect(computeInsights([tool({ response_units: 3_000_100 })])[0]!.severity).toBe('high');
  });
  it('a tool needs 20 calls; dead tools are the exception', () => {
    expect(computeInsights([tool({ calls: 19, first_call_successes: 0 })])).toEqual([]);
    expect(computeInsights([tool({ calls: 20, first_call_successes: 0 })])).toHaveLength(1);
    expect(
      computeInsights([tool({ calls: 0, first_call_successes: 0, dead: true })])[0],
    ).toMatchObject({ kind: 'dead_tool', severity: 'low', size: 100 });
  });
  it('ranked by impact: affected calls × severity weight × harm per call', () => {
    const out = computeInsights([
      tool({ name: 'a', first_call_successes: 60 }), // medium, 40 × 2 = 80
      tool({ name: 'b', first_call_successes: 10 }), // high, 90 × 3 = 270
      tool({ name: 'c', first_call_successes: 20, calls: 50 }), // high, 30 × 3 = 90
      tool({ name: 'd', dead: true, calls: 0, first_call_successes: 0, schema_bytes: 900 }),
      tool({ name: 'e', first_call_successes: 60, empty: 30 }), // medium 80 + high empty 90
    ]);
    expect(out.map((i) => `${i.severity}:${i.tool}:${i.kind}:${i.impact}`)).toEqual([
      'high:b:low_first_call_success:270',
      'high:c:low_first_call_success:90',
      'high:e:empty_results:90',
      'medium:a:low_first_call_success:80',
      'medium:e:low_first_call_success:80',
      'low:d:dead_tool:0',
    ]);
  });
  it('failures at any sample size, their confidence in the title, crashes first', () => {
    const out = computeInsights([
      tool({ name: 'busy', calls: 100, first_call_successes: 60, empty: 30 }), // empty 30 × 3
      tool({ name: 'sync_calendar', calls: 14, first_call_successes: 0, crashed: 14 }),
      tool({
        name: 'search_tickets',
        calls: 10,
        first_call_successes: 0,
        bad_args: 10,
        latest_bad_args_run: 10,
      }),
      tool({ name: 'once', calls: 1, first_call_successes: 0, tool_errors: 1 }),
    ]);
    expect(out.map((i) => `${i.severity}:${i.tool}:${i.kind}:${i.impact}`)).toEqual([
      'high:sync_calendar:crashes:168', // 14 × 3 × 4
      'high:busy:empty_results:90',
      'medium:busy:low_first_call_success:80',
      'high:search_tickets:bad_args_streak:60', // 10 × 3 × 2
      'medium:once:error_rate:6', // 1 of 1: medium, not high, on one call
    ]);
    expect(out[0]).toMatchObject({
      title: 'sync_calendar crashed on 14 of 14 calls',
      detail: 'Every call threw inside the tool before it could answer.',
      affected: 14,
      calls: 14,
    });
    expect(out[3]!.detail).toMatch(/latest 10 calls in a row/);
    for (const i of out) expect(i.detail).not.toContain(i.title);
  });
  it('failure severity needs both a share and a count', () => {
    expect(failureSeverity(3, 6)).toBe('high');
    expect(failureSeverity(2, 2)).toBe('medium');
    expect(failureSeverity(2, 20)).toBe('medium');
    expect(failureSeverity(1, 20)).toBe('low');
    expect(failureSeverity(1, 1)).toBe('medium');
  });
});

describe('time', () => {
  const DAY = 86_400_000;
  it('buckets align to local time at an offset', () => {
    expect(bucketStart(DAY + 3_600_000, DAY, 2 * 3_600_000)).toBe(DAY - 2 * 3_600_000);
    expect(bucketStart(-1, DAY)).toBe(-DAY);
    expect(bucketStarts(0, 3 * 3_600_000, 3_600_000)).toEqual([0, 3_600_000, 7_200_000]);
  });
  it('splits a range into whole days and partial-day edges', () => {
    expect(splitByDay({})).toEqual({ days: {}, edges: [] });
    expect(splitByDay({ from: DAY, to: 3 * DAY })).toEqual({
      days: { from: DAY, to: 3 * DAY },
      edges: [],
    });
    expect(splitByDay({ from: DAY + 5, to: 3 * DAY + 7 })).toEqual({
      days: { from: 2 * DAY, to: 3 * DAY },
      edges: [
        { from: DAY + 5, to: 2 * DAY },
        { from: 3 * DAY, to: 3 * DAY + 7 },
      ],
    });
    expect(splitByDay({ from: DAY + 5, to: DAY + 9 })).toEqual({
      days: null,
      edges: [{ from: DAY + 5, to: DAY + 9 }],
    });
    expect(splitByDay({ from: DAY + 5 })).toEqual({
      days: { from: 2 * DAY, to: undefined },
      edges: [{ from: DAY + 5, to: 2 * DAY }],
    });
  });
});
