import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { rebuildSql } from '../../src/store/metrics/sql.js';
import { call, snapshot, tempStore, write } from '../metrics/helpers.js';
import { connectionOf } from '../../src/store/connection.js';

const stores: ReturnType<typeof tempStore>[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.cleanup()));

/** A retry-rich traffic pattern over several sessions, tools and requests, out of order. */
function traffic(store: ReturnType<typeof tempStore>): void {
  const times = [0, 40_000, 5_000, 30_000, 29_999, 61_000, 10, 10, 90_000, 35_000];
  for (let batch = 0; batch < 6; batch++) {
    write(
      store,
      times.map((t, i) =>
        call({
          t: t + batch * 7_000,
          session_id: `s_00000000000${batch % 3}`,
          tool: ['search', 'fetch', 'search'][i % 3]!,
          hash: i % 4 === 0 ? '000000000000' : `${(i % 3).toString().repeat(12)}`,
          outcome: i % 5 === 0 ? 'tool_error' : 'ok',
          is_empty: i % 7 === 0,
        }),
      ),
    );
  }
}

/** A new database file opened as the server opens it (facts deferred); closed by the test. */
function deferredStore(): ReturnType<typeof tempStore> {
  const first = tempStore();
  stores.push(first);
  const path = first.path;
  first.close();
  return Object.assign(openStore(path, { deferDerived: true }), { cleanup: () => {}, dir: '' });
}

/** The deferred-facts watermark: the last call whose facts are maintained. */
const watermark = (s: Store) =>
  connectionOf(s)
    .prepare("SELECT value FROM settings WHERE key = 'derived_through_call_id'")
    .pluck()
    .get();

/** What a rebuild from the raw rows gives, on the same connection. */
function rebuilt(store: ReturnType<typeof tempStore>) {
  connectionOf(store).exec(rebuildSql());
  return snapshot(store);
}

describe('deferred derived facts', () => {
  it('leaves calls pending after the write, and one flush makes them equal a rebuild', () => {
    const store = tempStore();
    stores.push(store);
    const path = store.path;
    store.close();
    const deferred = Object.assign(openStore(path, { deferDerived: true }), {
      cleanup: store.cleanup,
    });
    stores.push(deferred as ReturnType<typeof tempStore>);
    traffic(deferred as ReturnType<typeof tempStore>);
    const mark = connectionOf(deferred)
      .prepare("SELECT value FROM settings WHERE key = 'derived_through_call_id'")
      .pluck();
    expect(mark.get()).toBe('0');
    expect(deferred.flushDerived()).toBe(60);
    expect(deferred.flushDerived()).toBe(0);
    expect(mark.get()).toBe('60');
    const incremental = snapshot(deferred as ReturnType<typeof tempStore>);
    expect(incremental).toEqual(rebuilt(deferred as ReturnType<typeof tempStore>));
  });

  it('gives exactly what maintaining inside each request gives', () => {
    const sync = tempStore();
    stores.push(sync);
    traffic(sync);
    const deferred = deferredStore();
    traffic(deferred);
    deferred.flushDerived();
    const a = snapshot(sync);
    const b = snapshot(deferred);
    expect(b).toEqual(a);
    deferred.close();
  });

  it('maintains what a crash left pending when the file is next opened', () => {
    const crashed = deferredStore();
    traffic(crashed);
    // A kill -9 before the deferred flush: the connection goes away without close().
    connectionOf(crashed).close();
    const reopened = openStore(crashed.path);
    const facts = snapshot(Object.assign(reopened, { cleanup: () => {}, dir: '' }));
    expect(watermark(reopened)).toBe('60');
    expect(facts).toEqual(rebuilt(Object.assign(reopened, { cleanup: () => {}, dir: '' })));
    reopened.close();
  });

  it('flushes on its own shortly after a write, the whole backlog at once', async () => {
    const deferred = deferredStore();
    for (let i = 0; i < 3; i++) traffic(deferred);
    const deadline = Date.now() + 5000;
    while (watermark(deferred) !== '180' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    expect(watermark(deferred)).toBe('180');
    const facts = snapshot(deferred);
    expect(facts).toEqual(rebuilt(deferred));
    expect(deferred.flushDerived()).toBe(0);
    deferred.close();
  });
});

describe('the watermark when calls are deleted (migration 003, clear-all)', () => {
  it('follows deletes of the newest calls down, so reused ids are maintained', () => {
    const store = tempStore();
    stores.push(store);
    traffic(store);
    expect(watermark(store)).toBe('60');
    // Deleting the newest calls (say, retention emptying an idle project) lowers it…
    connectionOf(store).prepare('DELETE FROM calls WHERE id > 40').run();
    expect(watermark(store)).toBe('40');
    // …so the calls that reuse ids 41… are maintained, and the facts equal a rebuild.
    traffic(store);
    expect(snapshot(store)).toEqual(rebuilt(store));
  });

  it('leaves it alone when older calls go', () => {
    const store = tempStore();
    stores.push(store);
    traffic(store);
    connectionOf(store).prepare('DELETE FROM calls WHERE id <= 10').run();
    expect(watermark(store)).toBe('60');
  });

  it('starts it again at 0 after clear-all, so the next calls are counted (deferred)', async () => {
    const { clearAll } = await import('../../src/store/retention/clear.js');
    const deferred = deferredStore();
    traffic(deferred);
    deferred.flushDerived();
    clearAll(deferred);
    expect(watermark(deferred)).toBe('0');
    traffic(deferred);
    expect(deferred.flushDerived()).toBe(60);
    expect(snapshot(deferred)).toEqual(rebuilt(deferred));
    deferred.close();
  });
});

describe('the watermark after a full rebuild', () => {
  it('marks every call maintained, so calls written raw are not maintained again', async () => {
    const { rebuildAllMetrics } = await import('../../src/store/metrics/rebuild-all.js');
    const deferred = deferredStore();
    // Written as the bench seeds: rows stored, facts left pending (nothing flushed yet).
    traffic(deferred);
    expect(watermark(deferred)).toBe('0');
    rebuildAllMetrics(deferred);
    expect(watermark(deferred)).toBe('60');
    // Nothing is pending: the next flush has no call to maintain again.
    expect(deferred.flushDerived()).toBe(0);
    traffic(deferred);
    expect(deferred.flushDerived()).toBe(60);
    expect(snapshot(deferred)).toEqual(rebuilt(deferred));
    deferred.close();
  });
});
