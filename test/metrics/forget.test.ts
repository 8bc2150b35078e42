/**
 * The forget hook (src/store/metrics/forget.ts): deleting a prefix of each session — a clean
 * cut or one inside a run — keeps every derived fact and rollup equal to a full rebuild, with
 * nothing left marked; any other deletion, or one of calls not yet maintained, leaves the
 * project marked, and the engine's rebuild makes it exact.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RETRY_WINDOW_MS } from '../../src/shared/metric-constants.js';
import { openStore, type Store } from '../../src/store/index.js';
import { createCallForgetter } from '../../src/store/metrics/forget.js';
import { REPAIR_LIMIT } from '../../src/store/metrics/forget/repair.js';
import { DERIVED_TABLES, rebuildSql } from '../../src/store/metrics/sql.js';
import { call, snapshot, write } from './helpers.js';
import { connectionOf } from '../../src/store/connection.js';

let store: Store;
beforeEach(() => {
  store = openStore(':memory:');
});
afterEach(() => store.close());

const byNumber = (a: number, b: number) => a - b;
const dirty = () =>
  connectionOf(store)
    .prepare<[], { project_id: number }>('SELECT project_id FROM metrics_dirty ORDER BY 1')
    .all()
    .map((d) => d.project_id);

/** The ids of a session's calls in session order, with their start times. */
const sessionOrder = (session: string) =>
  connectionOf(store)
    .prepare<[string], { id: number; started_ms: number; project_id: number }>(
      'SELECT id, started_ms, project_id FROM calls WHERE session_id = ? ORDER BY started_ms, id',
    )
    .all(session);

/** Asserts what is stored equals a rebuild from scratch. */
function expectEqualsRebuild(): void {
  const kept = snapshot(store);
  connectionOf(store).exec(rebuildSql());
  expect(snapshot(store)).toEqual(kept);
}

describe('forgetting calls', () => {
  it('knows every derived table of the current schema', () => {
    expect(createCallForgetter(connectionOf(store)).exact).toBe(true);
    expect(DERIVED_TABLES.length).toBeGreaterThan(0);
  });

  it('a clean cut is adjusted in place; the first call left loses its tool pair', () => {
    write(store, [
      call({ t: 0, tool: 'search', hash: 'aaaaaaaaaaaa' }),
      call({ t: 1_000, tool: 'search', hash: 'bbbbbbbbbbbb', outcome: 'bad_args' }),
      call({ t: 2_000, tool: 'fetch', duration_ms: 9_000 }),
      call({ t: 40_000, tool: 'search', client_name: 'other' }),
      call({ t: 41_000, tool: 'search', hash: 'cccccccccccc' }),
    ]);
    const ids = sessionOrder('s_000000000001').map((r) => r.id);
    const report = createCallForgetter(connectionOf(store)).forget(ids.slice(0, 3));
    expect(report).toMatchObject({ calls: 3, rebuild: [] });
    expect(report.adjusted).toHaveLength(1);
    expect(dirty()).toEqual([]);
    expect(
      connectionOf(store).prepare('SELECT prev_tool FROM calls WHERE id = ?').get(ids[3]),
    ).toEqual({
      prev_tool: null,
    });
    expectEqualsRebuild();
  });

  it('a cut inside a run rewrites the run left, in place, as a rebuild would', () => {
    // search: a retry chain of four (a→b→c→d, each within 30 s), then a lone call far later;
    // fetch: a repeat pair interleaved.
    write(store, [
      call({ t: 0, hash: 'aaaaaaaaaaaa', outcome: 'bad_args' }),
      call({ t: 1_000, tool: 'fetch', hash: 'cccccccccccc' }),
      call({ t: 5_000, hash: 'bbbbbbbbbbbb', outcome: 'bad_args' }),
      call({ t: 9_000, tool: 'fetch', hash: 'cccccccccccc' }),
      call({ t: 10_000, hash: 'dddddddddddd', outcome: 'bad_args' }),
      call({ t: 20_000, hash: 'eeeeeeeeeeee' }),
      call({ t: 200_000, hash: 'eeeeeeeeeeee' }),
    ]);
    const ids = sessionOrder('s_000000000001').map((r) => r.id);
    const forgetter = createCallForgetter(connectionOf(store));
    // The chain's head and the fetch pair's first call: the rest of both runs is left.
    const report = forgetter.forget(ids.slice(0, 2));
    expect(report).toMatchObject({ calls: 2, rebuild: [] });
    expect(dirty()).toEqual([]);
    const chain = connectionOf(store)
      .prepare('SELECT run_id, calls, retries FROM metrics_chains')
      .all();
    expect(chain).toEqual([{ run_id: ids[2], calls: 3, retries: 2 }]);
    expectEqualsRebuild();
    // Then the middle of what is left of the chain.
    expect(forgetter.forget(ids.slice(2, 4))).toMatchObject({ calls: 2, rebuild: [] });
    expect(dirty()).toEqual([]);
    expectEqualsRebuild();
  });

  it('a run left longer than the repair limit is left to the rebuild', () => {
    // One tool every second: one run of REPAIR_LIMIT + 2 calls.
    write(
      store,
      Array.from({ length: REPAIR_LIMIT + 2 }, (_, i) =>
        call({ t: i * 1_000, hash: i % 2 ? 'aaaaaaaaaaaa' : 'bbbbbbbbbbbb' }),
      ),
    );
    const [first] = sessionOrder('s_000000000001');
    const report = createCallForgetter(connectionOf(store)).forget([first!.id]);
    expect(report.rebuild).toEqual([first!.project_id]);
    expect(dirty()).toEqual([first!.project_id]);
    connectionOf(store).exec(rebuildSql(first!.project_id));
    expectEqualsRebuild();
  });

  it('a cut that is not a prefix, or of calls not yet maintained, is left to the rebuild', () => {
    write(store, [call({ t: 0 }), call({ t: 10_000, hash: 'bbbbbbbbbbbb' }), call({ t: 90_000 })]);
    write(store, [call({ t: 0, session_id: 's_other' })], 'mp_live_other');
    const [a, b, c] = sessionOrder('s_000000000001');
    const forgetter = createCallForgetter(connectionOf(store));
    expect(forgetter.forget([b!.id])).toMatchObject({ calls: 1, rebuild: [a!.project_id] });
    expect(dirty()).toEqual([a!.project_id]);
    connectionOf(store).exec(rebuildSql(a!.project_id));
    expectEqualsRebuild();

    // Deferred maintenance: a call stored but not yet maintained has run_id 0.
    connectionOf(store).prepare('UPDATE calls SET run_id = 0 WHERE id = ?').run(a!.id);
    expect(forgetter.forget([a!.id]).rebuild).toEqual([a!.project_id]);
    connectionOf(store).exec(rebuildSql(a!.project_id));
    expect(forgetter.forget([c!.id]).rebuild).toEqual([]);
    expect(dirty()).toEqual([]);
    expectEqualsRebuild();
  });

  it('any prefix cuts of random sessions equal a rebuild, with nothing marked', () => {
    const callArb = fc.record({
      session: fc.constantFrom('s_a', 's_b', 's_c'),
      key: fc.constantFrom('mp_live_one', 'mp_live_two'),
      gap: fc.oneof(
        fc.integer({ min: 0, max: 40_000 }),
        fc.constantFrom(RETRY_WINDOW_MS, RETRY_WINDOW_MS + 1),
      ),
      tool: fc.constantFrom('search', 'fetch'),
      hash: fc.constantFrom('aaaaaaaaaaaa', 'bbbbbbbbbbbb', '000000000000'),
      client: fc.constantFrom('c1', 'c2'),
      outcome: fc.constantFrom('ok', 'ok', 'bad_args', 'crashed' as const),
      empty: fc.boolean(),
      // Now and then longer than the gap after it: a forgotten call can end after those left.
      duration: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 200_000 })),
      units: fc.integer({ min: 0, max: 50_000 }),
    });
    fc.assert(
      fc.property(
        fc.array(callArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
        fc.integer({ min: 1, max: 4 }),
        (specs, cutSeeds, batches) => {
          store.close();
          store = openStore(':memory:');
          const clock = new Map<string, number>();
          const payloads = specs.map((x) => {
            const k = `${x.key}/${x.session}`;
            const t = (clock.get(k) ?? 0) + x.gap;
            clock.set(k, t);
            return {
              key: x.key,
              payload: call({
                t,
                session_id: x.session,
                tool: x.tool,
                hash: x.hash,
                client_name: x.client,
                outcome: x.outcome,
                is_empty: x.outcome === 'ok' && x.empty,
                duration_ms: x.duration,
                response_bytes: x.units,
              }),
            };
          });
          // Several requests, the later ones first: late arrivals exercise the maintainer.
          for (let b = batches - 1; b >= 0; b--)
            for (const key of ['mp_live_one', 'mp_live_two']) {
              const part = payloads.filter((p, i) => i % batches === b && p.key === key);
              if (part.length)
                write(
                  store,
                  part.map((p) => p.payload),
                  key,
                );
            }

          const doomed: number[] = [];
          const touched = new Set<number>();
          let seed = 0;
          for (const project of connectionOf(store)
            .prepare<[], { id: number }>('SELECT id FROM projects')
            .all())
            for (const session of ['s_a', 's_b', 's_c']) {
              const rows = sessionOrder(session).filter((r) => r.project_id === project.id);
              const k = cutSeeds[seed++]! % (rows.length + 1);
              if (k === 0) continue;
              doomed.push(...rows.slice(0, k).map((r) => r.id));
              touched.add(project.id);
            }
          const report = createCallForgetter(connectionOf(store)).forget(doomed);
          expect(report.calls).toBe(doomed.length);
          expect(report.rebuild).toEqual([]);
          expect(report.adjusted.sort(byNumber)).toEqual([...touched].sort(byNumber));
          expect(dirty()).toEqual([]);
          expectEqualsRebuild();
        },
      ),
      { numRuns: 200 },
    );
  });
});
