/**
 * The forget hook (src/store/metrics/forget.ts): deleting a clean cut of each session keeps
 * every derived fact and rollup equal to a full rebuild, with nothing left marked; any other
 * deletion leaves the project marked, and the engine's rebuild makes it exact.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RETRY_WINDOW_MS } from '../../src/shared/metric-constants.js';
import { openStore, type Store } from '../../src/store/index.js';
import { createCallForgetter } from '../../src/store/metrics/forget.js';
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

  it('a cut inside a run, or of calls not yet maintained, is left to the rebuild', () => {
    write(store, [call({ t: 0 }), call({ t: 10_000, hash: 'bbbbbbbbbbbb' }), call({ t: 90_000 })]);
    write(store, [call({ t: 0, session_id: 's_other' })], 'mp_live_other');
    const [a, b, c] = sessionOrder('s_000000000001');
    const forgetter = createCallForgetter(connectionOf(store));
    expect(forgetter.forget([a!.id])).toMatchObject({ calls: 1, rebuild: [a!.project_id] });
    expect(dirty()).toEqual([a!.project_id]);
    connectionOf(store).exec(rebuildSql(a!.project_id));
    expectEqualsRebuild();

    // Deferred maintenance: a call stored but not yet maintained has run_id 0.
    connectionOf(store).prepare('UPDATE calls SET run_id = 0 WHERE id = ?').run(b!.id);
    expect(forgetter.forget([b!.id]).rebuild).toEqual([a!.project_id]);
    connectionOf(store).exec(rebuildSql(a!.project_id));
    expect(forgetter.forget([c!.id]).rebuild).toEqual([]);
    expect(dirty()).toEqual([]);
    expectEqualsRebuild();
  });

  it('any clean cuts of random sessions equal a rebuild; other cuts are marked', () => {
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
          const unclean = new Set<number>();
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
              const next = rows[k];
              if (next && next.started_ms - rows[k - 1]!.started_ms <= RETRY_WINDOW_MS)
                unclean.add(project.id);
            }
          const report = createCallForgetter(connectionOf(store)).forget(doomed);
          expect(report.calls).toBe(doomed.length);
          expect(report.rebuild.sort(byNumber)).toEqual([...unclean].sort(byNumber));
          expect(report.adjusted.sort(byNumber)).toEqual(
            [...touched].filter((p) => !unclean.has(p)).sort(byNumber),
          );
          expect(dirty()).toEqual([...unclean].sort(byNumber));
          for (const p of unclean) connectionOf(store).exec(rebuildSql(p));
          expectEqualsRebuild();
        },
      ),
      { numRuns: 80 },
    );
  });
});
