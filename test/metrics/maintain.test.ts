import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deriveSession } from '../../src/metrics/links.js';
import { createMetricsMaintainer } from '../../src/store/metrics/maintain.js';
import { call, snapshot, tempStore, write } from './helpers.js';
import { connectionOf } from '../../src/store/connection.js';

let store: ReturnType<typeof tempStore>;
beforeEach(() => {
  store = tempStore();
});
afterEach(() => store.cleanup());

const rebuild = () => createMetricsMaintainer(connectionOf(store)).rebuildAll();

/** Asserts stored facts equal both a full rebuild and the pure reference. */
function expectExact() {
  const incremental = snapshot(store);
  const rows = connectionOf(store)
    .prepare(
      'SELECT id, project_id, session_id, tool_name, started_ms, args_hash, outcome, is_empty FROM calls',
    )
    .all() as {
    id: number;
    project_id: number;
    session_id: string;
    tool_name: string;
    started_ms: number;
    args_hash: string;
    outcome: string;
    is_empty: number;
  }[];
  const bySession = new Map<string, typeof rows>();
  for (const r of rows) {
    const k = `${r.project_id}/${r.session_id}`;
    bySession.set(k, [...(bySession.get(k) ?? []), r]);
  }
  const reference = new Map<number, unknown>();
  for (const list of bySession.values())
    for (const [id, f] of deriveSession(list)) reference.set(id, f);
  for (const c of incremental.calls as { id: number }[]) {
    const { id, size_bucket: _s, ...facts } = c as Record<string, unknown> & { id: number };
    expect({ id, ...facts }).toEqual({ id, ...(reference.get(id) as object) });
  }
  rebuild();
  expect(snapshot(store)).toEqual(incremental);
}

describe('incremental maintenance', () => {
  it('in-order arrival equals a rebuild', () => {
    write(store, [call({ t: 0, hash: 'aaaaaaaaaaaa' }), call({ t: 1000, hash: 'bbbbbbbbbbbb' })]);
    write(store, [call({ t: 2000, hash: 'cccccccccccc', outcome: 'bad_args' })]);
    write(store, [call({ t: 40_000, hash: 'cccccccccccc' }), call({ t: 41_000, tool: 'other' })]);
    expectExact();
  });

  it('a late call between two retries turns them into repeats and dissolves the chain', () => {
    write(store, [call({ t: 0, hash: 'aaaaaaaaaaaa' })]);
    write(store, [call({ t: 20_000, hash: 'bbbbbbbbbbbb' })]);
    let rows = connectionOf(store).prepare('SELECT chain FROM calls ORDER BY id').all();
    expect(rows).toEqual([{ chain: 1 }, { chain: 1 }]);
    // Arrives late, started in between: a→a repeat, a→b retry still. Then a late bb before b.
    write(store, [call({ t: 10_000, hash: 'aaaaaaaaaaaa' })]);
    expectExact();
    write(store, [call({ t: 15_000, hash: '000000000000' })]);
    expectExact();
    rows = connectionOf(store).prepare('SELECT link FROM calls ORDER BY started_ms, id').all();
    expect(rows).toEqual([{ link: 2 }, { link: 3 }, { link: 3 }, { link: 0 }]);
  });

  it('a late call bridges two runs into one chain', () => {
    write(store, [call({ t: 0, hash: 'aaaaaaaaaaaa' }), call({ t: 25_000, hash: 'aaaaaaaaaaaa' })]);
    write(store, [
      call({ t: 80_000, hash: 'bbbbbbbbbbbb' }),
      call({ t: 90_000, hash: 'bbbbbbbbbbbb' }),
    ]);
    write(store, [call({ t: 52_000, hash: 'cccccccccccc' })]);
    expectExact();
    const runs = connectionOf(store).prepare('SELECT DISTINCT run_id, chain FROM calls').all();
    expect(runs).toEqual([{ run_id: 1, chain: 1 }]);
  });

  it('appending a retry to a long run of repeats marks the whole run a chain', () => {
    write(
      store,
      Array.from({ length: 10 }, (_, i) => call({ t: i * 5000, hash: 'aaaaaaaaaaaa' })),
    );
    write(
      store,
      Array.from({ length: 5 }, (_, i) => call({ t: 50_000 + i * 5000, hash: 'aaaaaaaaaaaa' })),
    );
    write(store, [call({ t: 75_000, tool: 'other' })]);
    write(store, [call({ t: 80_000, hash: 'dddddddddddd' })]);
    expectExact();
    expect(
      connectionOf(store).prepare('SELECT count(*) n FROM calls WHERE chain = 1').get(),
    ).toEqual({
      n: 16,
    });
  });

  it('property: any arrival order and batching gives the same facts as a rebuild', () => {
    const callArb = fc.record({
      session: fc.constantFrom('s_000000000001', 's_000000000002'),
      tool: fc.constantFrom('a', 'b', 'c'),
      client: fc.constantFrom('x', 'y'),
      // Coarse times so equal instants and the 30 s boundary are common.
      t: fc.integer({ min: 0, max: 24 }).map((n) => n * 7500),
      hash: fc.constantFrom('aaaaaaaaaaaa', 'bbbbbbbbbbbb', '000000000000'),
      outcome: fc.constantFrom('ok', 'ok', 'bad_args', 'tool_error', 'crashed'),
      empty: fc.boolean(),
      duration: fc.constantFrom(0, 99, 100, 499, 500, 1999, 2000, 5000),
      bytes: fc.constantFrom(0, 1, 9, 10, 4999, 12_000),
    });
    const scenario = fc.record({
      calls: fc.array(callArb, { minLength: 1, maxLength: 40 }),
      cuts: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 20 }),
      projects: fc.boolean(),
    });
    fc.assert(
      fc.property(scenario, ({ calls, cuts, projects }) => {
        store.cleanup();
        store = tempStore();
        let i = 0;
        let k = 0;
        while (i < calls.length) {
          const n = cuts[k++ % cuts.length]!;
          const chunk = calls.slice(i, i + n);
          i += n;
          write(
            store,
            chunk.map((c) =>
              call({
                session_id: c.session,
                tool: c.tool,
                client_name: c.client,
                t: c.t,
                hash: c.hash,
                outcome: c.outcome as 'ok',
                is_empty: c.outcome === 'ok' && c.empty,
                duration_ms: c.duration,
                response_bytes: c.bytes,
              }),
            ),
            projects && k % 2 === 0 ? 'mp_live_other' : 'mp_live_test',
          );
        }
        expectExact();
      }),
      { numRuns: 150 },
    );
  });
});
