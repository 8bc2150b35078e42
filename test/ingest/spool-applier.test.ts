/**
 * How much one slice of the spool's applier takes (src/ingest/spool-applier.ts), on a real
 * SQLite file: a small slice while acknowledgements are flowing, so the event loop stays free
 * for them, and the full-spool slice once the backlog is past half its bound, when cheaper
 * calls matter more than a short hold (a flood longer than the spool). And when its timer
 * applies: after a quiet moment while acknowledgements flow, at once past half the bound.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { createSpoolApplier } from '../../src/ingest/spool-applier.js';
import { createValidatedRecords, LiveBus } from '../../src/ingest/index.js';
import { connectionOf } from '../../src/store/connection.js';
import { openStore, type SpoolEntry, type Store } from '../../src/store/index.js';
import { tempDir } from '../helpers/temp-dir.js';

const PER_REQUEST = 30;

/** `n` spooled SDK flushes of one session, as an acknowledged flood leaves them. */
const flushes = (n: number): SpoolEntry[] =>
  Array.from({ length: n }, (_, r) => ({
    receivedMs: Date.now(),
    keySha256: 'a'.repeat(64),
    keyPrefix: 'mp_live_ab',
    userAgent: 'test',
    payloads: PER_REQUEST,
    body: Buffer.from(
      JSON.stringify({
        batch: Array.from({ length: PER_REQUEST }, (_, k) => ({
          v: 1,
          type: 'call',
          session_id: 's_flood',
          client_name: 'test',
          tool_name: k % 2 ? 'search' : 'fetch',
          started_at: new Date(
            Date.UTC(2026, 11, 2, 9) + (r * PER_REQUEST + k) * 100,
          ).toISOString(),
          duration_ms: 5 + k,
          outcome: 'ok',
          response_bytes: 100,
          is_empty: false,
          args_hash: 'a1b2c3d4e5f6',
        })),
      }),
    ),
  }));

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.reverse()) c();
  cleanup = [];
});

/** A store whose spool holds 60 flushes, and its applier with the backlog said to be `nearlyFull`. */
function applierOver(nearlyFull: boolean): {
  store: Store;
  applied: () => number;
  slice: () => void;
  schedule: () => void;
} {
  const { dir, remove } = tempDir('mcpulse-applier-');
  const store = openStore(join(dir, 'a.db'));
  cleanup.push(remove, () => store.close());
  store.spool.add(flushes(60));
  const backlog = store.spool.backlog();
  const applier = createSpoolApplier({
    store,
    bus: new LiveBus(),
    backlog,
    // A group was just acknowledged: ingest is busy, not quiet.
    lastGroupMs: () => performance.now(),
    nearlyFull: () => nearlyFull,
    changed: () => {},
    validated: createValidatedRecords(),
  });
  cleanup.push(() => applier.close());
  return {
    store,
    applied: () => 60 - backlog.requests,
    slice: () => applier.applySlice(),
    schedule: () => applier.schedule(0),
  };
}

describe('spool applier slices', () => {
  // A new applier assumes 0.05 ms per item until it has measured one: a 12 ms slice is 240
  // items (8 flushes of 30), a 50 ms one 1,000 items (33 flushes).
  it('takes a short slice while acknowledgements flow', () => {
    const a = applierOver(false);
    a.slice();
    expect(a.applied()).toBe(8);
  });

  it('takes the full-spool slice once the backlog is past half its bound', () => {
    const a = applierOver(true);
    a.slice();
    expect(a.applied()).toBe(33);
    // What was applied is stored, exactly once.
    const { n } = connectionOf(a.store).prepare('SELECT count(*) AS n FROM calls').get() as {
      n: number;
    };
    expect(n).toBe(33 * PER_REQUEST);
  });
});

describe('spool applier timing', () => {
  // The applier's clock and timers, faked: whether it waits must not depend on how busy the
  // machine running the tests is.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** An applier that has taken one slice and is scheduled again, with what it had applied. */
  function scheduledAfterOneSlice(nearlyFull: boolean) {
    const a = applierOver(nearlyFull);
    a.slice();
    const before = a.applied();
    a.schedule();
    return { appliedSince: () => a.applied() - before };
  }

  // After one slice, with a group just acknowledged, applying waits for a quiet moment (or
  // STARVE_MS, 250 ms) so the next acknowledgements go first…
  it('waits for a quiet moment while acknowledgements flow', () => {
    const a = scheduledAfterOneSlice(false);
    vi.advanceTimersByTime(200);
    expect(a.appliedSince()).toBe(0);
    vi.advanceTimersByTime(100);
    expect(a.appliedSince()).toBeGreaterThan(0);
  });

  // …but not once the backlog is past half its bound: those acknowledgements will wait for
  // room anyway, and the loop sat idle between a flood's requests.
  it('applies at once past half the bound, busy or not', () => {
    const a = scheduledAfterOneSlice(true);
    vi.advanceTimersByTime(1);
    expect(a.appliedSince()).toBeGreaterThan(0);
  });
});
