/**
 * wire-format §4's worked example, through the real ingest path and `/api/summary`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallView, ChainView, ToolSummary } from '../../src/metrics/report.js';
import { startHarness, type Harness } from './server.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  expect(await h.capture('ts-sdk-exercise')).toBe(202);
});
afterAll(() => h.close());

describe('worked example: captures/ts-sdk-exercise.json', () => {
  it('gives exactly the stated numbers on /api/summary', async () => {
    const s = await h.get('summary');
    expect(s.calls).toBe(7);
    expect(s.sessions).toBe(1);
    expect(s.outcomes).toEqual({ ok: 3, empty: 1, bad_args: 1, tool_error: 1, crashed: 1 });
    expect(s.retries).toBe(2);
    expect(s.retry_chains).toBe(1);
    expect(s.first_call_success).toEqual({ rate: 2 / 7, successes: 2, calls: 7 });
    expect(s.first_call_success.rate?.toFixed(3)).toBe('0.286');
    expect(s.latency.buckets).toEqual({ under_100: 6, under_500: 0, under_2000: 0, over_2000: 1 });
    expect(s.latency.p50_ms).toBe(1);
    expect(s.latency.p95_ms).toBe(3004);
    expect(s.latency.p99_ms).toBe(3004);
    expect(s.latency.p95_bucket).toBe('>2s');
    // The Overview's log buckets: the same seven calls, the 3 s one alone in [2K, 5K).
    const hist = s.latency.histogram;
    expect(hist.reduce((a, b) => a + b.count, 0)).toBe(7);
    expect(hist.at(-1)).toMatchObject({ label: '2K–5K', count: 1, units: 3004 });
    // Durations 0, 1, 1, 1, 5, 5 and 3004 ms.
    expect(hist.filter((b) => b.count > 0).map((b) => [b.label, b.count])).toEqual([
      ['0', 1],
      ['1–2', 3],
      ['5–10', 2],
      ['2K–5K', 1],
    ]);
    expect(s.registered_tools).toBe(6);
    expect(s.schema_bytes).toBe(1798);
    expect(s.tools).toHaveLength(6);
    const byName = Object.fromEntries(s.tools.map((t: ToolSummary) => [t.name, t]));
    expect(byName.dead_tool).toMatchObject({
      registered: true,
      calls: 0,
      dead: true,
      schema_bytes: 356,
    });
    expect(s.tools.filter((t: ToolSummary) => t.dead).map((t: ToolSummary) => t.name)).toEqual([
      'dead_tool',
    ]);
    expect(byName.fast_tool).toMatchObject({
      registered: true,
      schema_bytes: 333,
      calls: 3,
      first_call_successes: 1,
      retries: 2,
      outcomes: { ok: 2, empty: 0, bad_args: 1, tool_error: 0, crashed: 0 },
      avg_response_bytes: (65 + 190 + 72) / 3,
      p95_ms: 5,
      dead: false,
    });
    expect(byName.slow_tool).toMatchObject({
      calls: 1,
      first_call_successes: 1,
      p95_ms: 3004,
      retries: 0,
    });
    expect(byName.empty_tool).toMatchObject({
      calls: 1,
      first_call_successes: 0,
      outcomes: { empty: 1 },
    });
    for (const t of s.tools) {
      const o = t.outcomes;
      expect(o.ok + o.empty + o.bad_args + o.tool_error + o.crashed).toBe(t.calls);
    }
  });

  it('shows the fast_tool retry chain: 3 calls, 2 retries, resolved', async () => {
    const c = await h.get('chains');
    expect(c.total).toBe(1);
    expect(c.resolved).toBe(1);
    const chain = c.chains[0]!;
    expect(chain).toMatchObject({ tool: 'fast_tool', call_count: 3, retries: 2, resolved: true });
    expect(
      chain.calls.map((x: CallView) => [x.started_at.slice(17), x.args_hash.slice(0, 4)]),
    ).toEqual([
      ['43.544Z', 'f079'],
      ['43.565Z', 'c9af'],
      ['46.577Z', 'f7e7'],
    ]);
    expect(chain.links.map((l: ChainView['links'][number]) => l.kind)).toEqual(['retry', 'retry']);
  });

  it('marks each call of the session with its reason', async () => {
    const d = await h.get('session', { id: 's_e4cc6a39269d' });
    expect(d.session).toMatchObject({ calls: 7, retries: 2, retry_chains: 1, schema_bytes: 1798 });
    const fcs = d.calls
      .filter((c: CallView) => c.first_call_success)
      .map((c: CallView) => c.tool_name);
    expect(fcs).toEqual(['slow_tool', 'fast_tool']);
    const first = d.calls[0]!;
    expect(first).toMatchObject({
      tool_name: 'fast_tool',
      retried: true,
      first_call_success: false,
      next_gap_ms: 21,
    });
    expect(first.reason).toMatch(/retried/);
    expect(d.calls.at(-1)).toMatchObject({ retry_of_previous: true, first_call_success: true });
  });

  it('counts one call of 2 s or more; under 20 calls only failures and the dead tool', async () => {
    const i = await h.get('insights');
    // No hosted threshold applies under 20 calls; failures count at any sample size.
    expect(i.insights.map((x) => [x.kind, x.tool])).toEqual([
      ['crashes', 'crash_tool'],
      ['error_rate', 'error_tool'],
      ['bad_args_streak', 'fast_tool'],
      ['dead_tool', 'dead_tool'],
    ]);
  });
});
