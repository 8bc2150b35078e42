/**
 * Every query path — all-time rollups, whole days plus raw partial-day edges, raw calls for
 * session filters — must give exactly what a naive fold over all calls gives, for any filter.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomeClass } from '../../src/metrics/aggregate.js';
import { OUTCOME_CLASSES } from '../../src/shared/outcomes.js';
import { latencyBucketIndex, percentiles, histogramOf } from '../../src/metrics/latency.js';
import { deriveSession, LINK, type DerivedFacts } from '../../src/metrics/links.js';
import { sizeBucket } from '../../src/metrics/sizes.js';
import { buildSummary, logHistogramOfCounts } from '../../src/metrics/report.js';
import { metricsOf } from '../../src/store/metrics/queries.js';
import type { CallFilter } from '../../src/shared/rows.js';
import { BASE, call, startup, tempStore, write } from './helpers.js';
import { connectionOf } from '../../src/store/connection.js';

const DAY = 86_400_000;
let store: ReturnType<typeof tempStore>;

interface Ref {
  id: number;
  project: number;
  session: string;
  client: string;
  tool: string;
  ms: number;
  duration: number;
  outcome: string;
  empty: boolean;
  bytes: number;
  hash: string;
  f: DerivedFacts;
}
let calls: Ref[] = [];
const projectOf = new Map<string, number>();

beforeAll(() => {
  store = tempStore();
  let seed = 11;
  const rnd = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 4294967296;
  };
  const tools = ['search', 'get', 'list', 'write'];
  const payloads: ReturnType<typeof call>[] = [];
  for (let s = 0; s < 24; s++) {
    // Sessions start over 4 days, some straddling midnight; gaps from 0 ms to minutes.
    let t = Math.floor(rnd() * 4 * DAY) - 2 * 3_600_000;
    for (let i = 0; i < 30; i++) {
      t += [0, 500, 9_000, 30_000, 30_001, 200_000][Math.floor(rnd() * 6)]!;
      const outcome = (['ok', 'ok', 'ok', 'bad_args', 'tool_error', 'crashed'] as const)[
        Math.floor(rnd() * 6)
      ]!;
      payloads.push(
        call({
          session_id: `s_${String(s).padStart(12, '0')}`,
          client_name: s % 3 === 0 ? 'cursor' : 'claude-code',
          tool: tools[Math.floor(rnd() * rnd() * 4)]!,
          t,
          duration_ms: [0, 5, 99, 100, 480, 1999, 2000, 4000][Math.floor(rnd() * 8)]!,
          outcome,
          is_empty: outcome === 'ok' && rnd() < 0.2,
          response_bytes: [0, 1, 42, 999, 12_000][Math.floor(rnd() * 5)]!,
          args_hash: ['aaaaaaaaaaaa', 'bbbbbbbbbbbb', '000000000000'][Math.floor(rnd() * 3)]!,
        }),
      );
    }
  }
  // Shuffle into requests, so arrival order differs from start order; two keys.
  for (let i = payloads.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [payloads[i], payloads[j]] = [payloads[j]!, payloads[i]!];
  }
  for (let i = 0; i < payloads.length; i += 17) {
    const chunk = payloads.slice(i, i + 17);
    const key = chunk[0]!.session_id.endsWith('1') ? 'mp_live_other' : 'mp_live_test';
    // A session stays in one project.
    const byKey = new Map<string, typeof chunk>();
    for (const c of chunk) {
      const k = c.session_id.endsWith('1') ? 'mp_live_other' : 'mp_live_test';
      byKey.set(k, [...(byKey.get(k) ?? []), c]);
    }
    for (const [k, list] of byKey) write(store, list, k);
    void key;
  }
  write(store, [
    startup([
      ['search', 300],
      ['get', 200],
      ['list', 100],
      ['unused', 50],
    ]),
  ]);
  const rows = connectionOf(store)
    .prepare(
      `SELECT id, project_id, session_id, client_name, tool_name, started_ms, duration_ms, outcome,
              is_empty, response_bytes, args_hash FROM calls`,
    )
    .all() as {
    id: number;
    project_id: number;
    session_id: string;
    client_name: string;
    tool_name: string;
    started_ms: number;
    duration_ms: number;
    outcome: string;
    is_empty: number;
    response_bytes: number;
    args_hash: string;
  }[];
  const bySession = new Map<string, typeof rows>();
  for (const r of rows) {
    const k = `${r.project_id}/${r.session_id}`;
    bySession.set(k, [...(bySession.get(k) ?? []), r]);
  }
  for (const list of bySession.values()) {
    const facts = deriveSession(list);
    for (const r of list) {
      calls.push({
        id: r.id,
        project: r.project_id,
        session: r.session_id,
        client: r.client_name,
        tool: r.tool_name,
        ms: r.started_ms,
        duration: r.duration_ms,
        outcome: r.outcome,
        empty: r.is_empty === 1,
        bytes: r.response_bytes,
        hash: r.args_hash,
        f: facts.get(r.id)!,
      });
      projectOf.set(r.session_id, r.project_id);
    }
  }
  calls = calls.sort((a, b) => a.ms - b.ms || a.id - b.id);
});
afterAll(() => store.cleanup());

const matches = (c: Ref, f: CallFilter) =>
  (f.projectId === undefined || c.project === f.projectId) &&
  (f.from === undefined || c.ms >= f.from) &&
  (f.to === undefined || c.ms < f.to) &&
  (f.tool === undefined || c.tool === f.tool) &&
  (f.client === undefined || c.client === f.client) &&
  (f.session === undefined || c.session === f.session);

/** The naive answer: fold the matching calls one by one. */
function reference(f: CallFilter) {
  const xs = calls.filter((c) => matches(c, f));
  const outcomes = { ok: 0, empty: 0, bad_args: 0, tool_error: 0, crashed: 0 };
  const buckets = [0, 0, 0, 0];
  const tools = new Map<
    string,
    { calls: number; fcs: number; retries: number; durations: number[] }
  >();
  for (const c of xs) {
    outcomes[OUTCOME_CLASSES[outcomeClass(c.outcome, c.empty)]!]++;
    buckets[latencyBucketIndex(c.duration)]!++;
    const t = tools.get(c.tool) ?? { calls: 0, fcs: 0, retries: 0, durations: [] };
    t.calls++;
    t.fcs += c.f.fcs;
    t.retries += c.f.link === LINK.retry ? 1 : 0;
    t.durations.push(c.duration);
    tools.set(c.tool, t);
  }
  const p = percentiles(histogramOf(xs.map((c) => c.duration)));
  return {
    calls: xs.length,
    sessions: new Set(xs.map((c) => `${c.project}/${c.session}`)).size,
    retries: xs.filter((c) => c.f.link === LINK.retry).length,
    retry_chains: xs.filter((c) => c.f.chain && c.f.prev_link === LINK.none).length,
    fcs: xs.filter((c) => c.f.fcs).length,
    outcomes,
    buckets,
    p,
    // The Overview's log-bucket duration histogram (counts and duration sums).
    durations: logHistogramOfCounts(histogramOf(xs.map((c) => c.duration))),
    units: xs.reduce((a, c) => a + c.bytes, 0),
    tools: [...tools.entries()]
      .map(([name, t]) => ({
        name,
        calls: t.calls,
        fcs: t.fcs,
        retries: t.retries,
        p95: percentiles(histogramOf(t.durations)).p95_ms,
      }))
      .sort((a, b) => (a.name < b.name ? -1 : 1)),
    sizes: (() => {
      const m = new Map<number, number>();
      for (const c of xs) m.set(sizeBucket(c.bytes), (m.get(sizeBucket(c.bytes)) ?? 0) + 1);
      return [...m.entries()].sort((a, b) => a[0] - b[0]);
    })(),
    pairs: (() => {
      const m = new Map<string, number>();
      for (const c of xs) {
        if (c.f.prev_tool !== null && c.f.prev_tool !== c.tool) {
          const k = `${c.f.prev_tool}>${c.tool}`;
          m.set(k, (m.get(k) ?? 0) + 1);
        }
      }
      return [...m.entries()].sort();
    })(),
  };
}

function actual(f: CallFilter) {
  const m = metricsOf(store);
  const stats = m.stats(f);
  const pct = m.percentiles(f);
  const schema = m.sessionSchema(f);
  const s = buildSummary({
    stats,
    percentiles: pct,
    registered: m.registered(f),
    sessions: schema.sessions,
    schema,
    usdPerMillion: 3,
    onlyTool: f.tool,
  });
  const sizes = new Map<number, number>();
  for (const [, b, n] of m.sizes(f)) sizes.set(b, (sizes.get(b) ?? 0) + n);
  const pairs = new Map<string, number>();
  for (const [a, b, n] of m.pairs({ ...f, tool: undefined })) {
    if (f.tool !== undefined && b !== f.tool) continue;
    pairs.set(`${a}>${b}`, (pairs.get(`${a}>${b}`) ?? 0) + n);
  }
  return {
    calls: s.calls,
    sessions: s.sessions,
    sessionCount: m.sessionCount(f),
    retries: s.retries,
    retry_chains: s.retry_chains,
    fcs: s.first_call_success.successes,
    outcomes: s.outcomes,
    buckets: Object.values(s.latency.buckets),
    p: { p50_ms: s.latency.p50_ms, p95_ms: s.latency.p95_ms, p99_ms: s.latency.p99_ms },
    durations: pct.histogram(),
    units: s.cost.response_units,
    tools: s.tools
      .filter((t) => t.calls > 0)
      .map((t) => ({
        name: t.name,
        calls: t.calls,
        fcs: t.first_call_successes,
        retries: t.retries,
        p95: t.p95_ms,
      }))
      .sort((a, b) => (a.name < b.name ? -1 : 1)),
    sizes: [...sizes.entries()].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]),
    pairs: [...pairs.entries()].filter(([, n]) => n > 0).sort(),
  };
}

describe('query paths agree with a naive fold', () => {
  const check = (f: CallFilter) => {
    const ref = reference(f);
    const got = actual(f);
    const { sessionCount, ...rest } = got;
    expect(rest).toEqual(ref);
    expect(sessionCount).toBe(ref.sessions);
  };

  it('no filter (all-time rollups)', () => check({}));
  it('one project', () => check({ projectId: 1 }));
  it('a tool, a client, a session', () => {
    check({ tool: 'search' });
    check({ client: 'cursor' });
    check({ session: 's_000000000004', projectId: projectOf.get('s_000000000004') });
    check({ session: 's_000000000004' });
    check({ tool: 'get', client: 'claude-code', projectId: 1 });
  });
  it('day-aligned, unaligned and open-ended ranges (whole days + raw edges)', () => {
    check({ from: BASE - (BASE % DAY), to: BASE - (BASE % DAY) + 2 * DAY });
    check({ from: BASE + 3_600_000 * 5 + 17, to: BASE + 3 * DAY - 1 });
    check({ from: BASE + DAY / 2 });
    check({ to: BASE + DAY / 3 });
    check({ from: BASE + 1000, to: BASE + 2000 });
    check({ from: BASE + DAY, to: BASE + DAY });
  });
  it('property: any filter combination', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            projectId: fc.constantFrom(1, 2),
            from: fc.integer({ min: -2, max: 5 * 24 }).map((h) => BASE + h * 3_600_000 + 123),
            span: fc.integer({ min: 0, max: 5 * 24 }).map((h) => h * 3_600_000 + 456),
            tool: fc.constantFrom('search', 'get', 'list', 'write', 'nope'),
            client: fc.constantFrom('cursor', 'claude-code'),
            session: fc.constantFrom('s_000000000002', 's_000000000011'),
          },
          { requiredKeys: [] },
        ),
        ({ span, ...r }) => {
          const f: CallFilter = { ...r };
          if (r.from !== undefined && span !== undefined) f.to = r.from + span;
          check(f);
        },
      ),
      { numRuns: 120 },
    );
  });
});

describe('time series agree with a naive fold', () => {
  const check = (f: CallFilter, widthMs: number, offsetMs: number) => {
    const m = metricsOf(store);
    const got = new Map<
      number,
      { calls: number; fcs: number; retries: number; units: number; oc: number[] }
    >();
    for (const [b, oc, link, n, units] of m.series(f, widthMs, offsetMs)) {
      const e = got.get(b) ?? { calls: 0, fcs: 0, retries: 0, units: 0, oc: [0, 0, 0, 0, 0] };
      e.calls += n;
      e.units += units;
      e.oc[oc]! += n;
      if (oc === 0 && link !== LINK.retry) e.fcs += n;
      if (link === LINK.retry) e.retries += n;
      got.set(b, e);
    }
    const want = new Map<
      number,
      { calls: number; fcs: number; retries: number; units: number; oc: number[] }
    >();
    const durations = new Map<number, number[]>();
    for (const c of calls.filter((x) => matches(x, f))) {
      const b = Math.floor((c.ms + offsetMs) / widthMs) * widthMs - offsetMs;
      const e = want.get(b) ?? { calls: 0, fcs: 0, retries: 0, units: 0, oc: [0, 0, 0, 0, 0] };
      e.calls++;
      e.units += c.bytes;
      e.oc[outcomeClass(c.outcome, c.empty)]!++;
      e.fcs += c.f.fcs;
      e.retries += c.f.link === LINK.retry ? 1 : 0;
      want.set(b, e);
      durations.set(b, [...(durations.get(b) ?? []), c.duration]);
    }
    const sorted = (x: Map<number, unknown>) => [...x.entries()].sort((a, b) => a[0] - b[0]);
    expect(sorted(got)).toEqual(sorted(want));
    const p95 = m.seriesP95(f, widthMs, offsetMs);
    const wantP95 = new Map(
      [...durations].map(([b, ds]) => [b, percentiles(histogramOf(ds)).p95_ms!]),
    );
    expect(sorted(p95)).toEqual(sorted(wantP95));
  };
  it('hours, UTC days and local days; hourly rollups plus raw edges; raw for filters', () => {
    const H = 3_600_000;
    for (const [w, o] of [
      [H, 0],
      [DAY, 0],
      [DAY, 2 * H],
      [DAY, -5 * H],
      [DAY, 5.5 * H],
      [6 * H, H],
    ] as const) {
      check({}, w, o);
      check({ projectId: 1, from: BASE + 1234, to: BASE + 2 * DAY + 98_765 }, w, o);
      check({ from: BASE + H * 7 }, w, o);
      check({ tool: 'search', to: BASE + DAY }, w, o);
      check({ client: 'cursor' }, w, o);
      check({ session: 's_000000000004' }, w, o);
    }
  });
});

describe("one tool's sessions agree with a naive fold (migration 013: no index in tool order)", () => {
  const H = 3_600_000;
  /** Each session's first call under the filter's project, tool and client (range aside). */
  const firsts = (f: CallFilter) => {
    const first = new Map<string, Ref>();
    const g = { ...f, from: undefined, to: undefined };
    for (const c of calls.filter((x) => matches(x, g))) {
      const k = `${c.project}/${c.session}`;
      const seen = first.get(k);
      if (!seen || c.ms < seen.ms || (c.ms === seen.ms && c.id < seen.id)) first.set(k, c);
    }
    return [...first.values()].filter(
      (c) => (f.from === undefined || c.ms >= f.from) && (f.to === undefined || c.ms < f.to),
    );
  };
  const filters = fc.record(
    {
      projectId: fc.constantFrom(1, 2),
      from: fc.integer({ min: -2, max: 5 * 24 * 4 }).map((q) => BASE + q * 900_000 + 123),
      span: fc.integer({ min: 0, max: 5 * 24 * 4 }).map((q) => q * 900_000 + 456),
      tool: fc.constantFrom('search', 'get', 'list', 'write', 'nope'),
      client: fc.constantFrom('cursor', 'claude-code'),
    },
    { requiredKeys: ['tool'] },
  );
  const filterOf = ({ span, ...r }: { span?: number } & CallFilter): CallFilter =>
    r.from !== undefined && span !== undefined ? { ...r, to: r.from + span } : r;

  it('sessions started per bucket, from the first hours alone where they suffice', () => {
    const m = metricsOf(store);
    fc.assert(
      fc.property(
        filters,
        fc.constantFrom([60_000, 0], [H, 0], [DAY, 0], [DAY, 5.5 * H], [6 * H, H]),
        (r, [widthMs, offsetMs]) => {
          const f = filterOf(r);
          const bucket = (ms: number) => Math.floor((ms + offsetMs) / widthMs) * widthMs - offsetMs;
          const count = (xs: number[]) => {
            const out = new Map<number, number>();
            for (const b of xs.map(bucket)) out.set(b, (out.get(b) ?? 0) + 1);
            return [...out.entries()].sort((a, b) => a[0] - b[0]);
          };
          const want = count(firsts(f).map((c) => c.ms));
          expect(count(m.sessionStarts(f, { widthMs, offsetMs }))).toEqual(want);
          // Without a grain, every start is the exact first call.
          expect(m.sessionStarts(f).sort((a, b) => a - b)).toEqual(
            firsts(f)
              .map((c) => c.ms)
              .sort((a, b) => a - b),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('the first and last call under a filter, from the first and last hours of a tool', () => {
    const m = metricsOf(store);
    fc.assert(
      fc.property(filters, fc.boolean(), (r, withTool) => {
        const f = filterOf(withTool ? r : { ...r, tool: undefined });
        const ms = calls.filter((c) => matches(c, f)).map((c) => c.ms);
        expect(m.extent(f)).toEqual({
          first_ms: ms.length ? Math.min(...ms) : null,
          last_ms: ms.length ? Math.max(...ms) : null,
        });
      }),
      { numRuns: 150 },
    );
  });

  it('first calls of each tool in the view: the first hour decides, cut hours are read', () => {
    const errors = store.read.toolErrors;
    fc.assert(
      fc.property(filters, (r) => {
        const { tool, ...f } = filterOf(r);
        const tools = ['search', 'get', 'list', 'write', 'nope'];
        const got = errors.firstCalls(f, tools);
        for (const t of tools) {
          // Each session's first call of the tool (whole session), counted when in the view.
          const want = firsts({ projectId: f.projectId, tool: t }).filter(
            (c) =>
              (f.from === undefined || c.ms >= f.from) &&
              (f.to === undefined || c.ms < f.to) &&
              (f.client === undefined || c.client === f.client),
          ).length;
          expect(got.get(t), `${t} ${JSON.stringify(f)}`).toBe(want);
        }
        void tool;
      }),
      { numRuns: 100 },
    );
  });
});
