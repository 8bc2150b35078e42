/**
 * The calls behind a number, newest first: one tool's calls are read from the start of the
 * latest hours holding enough of them (the hourly rollups), and must be exactly what reading
 * every matching call and sorting gives — with a client filter, a range ending mid-hour, keyset
 * pages, metric conditions that leave the window short, and a limit past the tool's total.
 */
import { OUTCOME_CLASSES } from '../../src/shared/outcomes.js';
import { afterEach, describe, expect, it } from 'vitest';
import { metricsOf } from '../../src/store/metrics/queries.js';
import type { CallFilter } from '../../src/shared/rows.js';
import { BASE, call, tempStore, write } from './helpers.js';

const HOUR = 3_600_000;
const stores: ReturnType<typeof tempStore>[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.cleanup()));

/** 2,000 calls over ~60 hours: a busy tool, a rare one that stopped early, two clients. */
function seeded() {
  const store = tempStore();
  stores.push(store);
  const payloads = [];
  for (let i = 0; i < 2000; i++) {
    const rare = i % 97 === 0 && i < 900;
    payloads.push(
      call({
        t: Math.floor((i * 60 * HOUR) / 2000) + (i % 7) * 1000,
        tool: rare ? 'rare' : i % 3 === 0 ? 'fetch' : 'search',
        session_id: `s_${String(i % 13).padStart(12, '0')}`,
        client_name: i % 5 === 0 ? 'cursor' : 'claude-code',
        outcome: i % 11 === 0 ? 'bad_args' : 'ok',
        duration_ms: i % 50,
      }),
    );
  }
  for (let i = 0; i < payloads.length; i += 100) write(store, payloads.slice(i, i + 100));
  return store;
}

describe('calls behind a number, one tool', () => {
  it('equals reading every matching call and sorting', () => {
    const store = seeded();
    const m = metricsOf(store);
    const everything = m.calls({}, {}, { limit: 100_000 });
    expect(everything).toHaveLength(2000);
    const newest = (f: CallFilter, keep: (c: (typeof everything)[number]) => boolean, n: number) =>
      everything
        .filter(
          (c) =>
            (f.tool === undefined || c.tool_name === f.tool) &&
            (f.client === undefined || c.client_name === f.client) &&
            (f.from === undefined || c.started_ms >= f.from) &&
            (f.to === undefined || c.started_ms < f.to) &&
            keep(c),
        )
        .slice(0, n)
        .map((c) => c.id);
    const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
    const none = {};
    for (const tool of ['search', 'fetch', 'rare', 'missing'])
      for (const limit of [1, 5, 50, 100, 3000]) {
        const f = { tool };
        expect(ids(m.calls(f, none, { limit })), `${tool} ${limit}`).toEqual(
          newest(f, () => true, limit),
        );
        const byClient = { tool, client: 'cursor' };
        expect(ids(m.calls(byClient, none, { limit }))).toEqual(
          newest(byClient, () => true, limit),
        );
        // A range ending and starting mid-hour.
        const ranged = { tool, from: BASE + 7 * HOUR + 1234, to: BASE + 41 * HOUR + 777 };
        expect(ids(m.calls(ranged, none, { limit }))).toEqual(newest(ranged, () => true, limit));
      }
    // Metric conditions rarer than the window's count: the window comes up short, so the
    // whole range is read.
    const bad = { outcomeClass: OUTCOME_CLASSES.indexOf('bad_args') };
    expect(ids(m.calls({ tool: 'search' }, bad, { limit: 40 }))).toEqual(
      newest({ tool: 'search' }, (c) => c.outcome === 'bad_args', 40),
    );
    // Keyset pages walk the tool's calls without a gap or a repeat.
    const paged: number[] = [];
    let before: { ms: number; id: number } | undefined;
    for (;;) {
      const page = m.calls({ tool: 'fetch' }, none, { limit: 37, before });
      paged.push(...ids(page));
      if (page.length < 37) break;
      const last = page[page.length - 1]!;
      before = { ms: last.started_ms, id: last.id };
    }
    expect(paged).toEqual(newest({ tool: 'fetch' }, () => true, 100_000));
  });
});
