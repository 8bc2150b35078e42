/**
 * The spool's applier: takes acknowledged requests out of the spool in slices sized to hold
 * the event loop ~12 ms (40 ms once ingest is quiet), stores them and publishes what was
 * written. It runs on its own timer in ingest's quiet moments (at least every STARVE_MS; at
 * once while the spool is past half its bound), and on demand for readers
 * ({@link SpoolApplier.drain}) and for the group commit.
 */
import type { BatchRecord, SpoolBacklog, SpooledRequest, Store } from '../store/index.js';
import type { LiveBus } from './bus.js';
import { acceptedRecord } from './examine.js';
import { publishWritten } from './publish.js';
import type { ValidatedRecords } from './validated-records.js';

/** How long one slice of applying aims to hold the event loop. */
const SLICE_TARGET_MS = 12;
/** …and once no flush has arrived for QUIET_MS: nobody waits, so fewer, larger transactions. */
const QUIET_SLICE_MS = 40;
const QUIET_MS = 1000;
/**
 * …and once the spool is past half its bound, when acknowledgements wait (or soon will) for
 * room anyway: a slice of 12 ms costs ~20% more CPU per call than one of 50 ms (more commits,
 * the same index pages written again), which a flood longer than the spool pays on every
 * call. Taking these slices from half-full on, not only when full, raised such a flood's
 * sustained rate ~5–15% (docs/benchmarks-history.md, "Issue 19, session 13").
 */
export const FULL_SPOOL_SLICE_MS = 50;
/** Ingest counts as busy for this long after a group; applying waits for a quiet moment… */
export const BUSY_MS = 10;
/** …but never longer than this, so the dashboard keeps moving during a flood. */
const STARVE_MS = 250;
/** After a failed apply, try again this often (requests and reads also retry). */
const RETRY_MS = 1000;
/**
 * While more than this many items wait, applied requests are announced by their `batch` event
 * alone: one event per call would be ~15k events/s, more than a dashboard (or a terminal)
 * can read, and the stream cuts readers that fall behind. Near live again, every row is sent.
 */
const ROW_EVENTS_BELOW = 2_000;

/** What the applier shares with the group commit. */
export interface SpoolApplierOptions {
  store: Store;
  bus: LiveBus;
  /** The spool's count, kept by both: the group commit adds, the applier takes away. */
  backlog: SpoolBacklog;
  /** When the last group was committed (performance.now()), to find quiet moments. */
  lastGroupMs: () => number;
  /** The backlog is past half its bound: acknowledgements will soon wait for room. */
  nearlyFull: () => boolean;
  /** The state changed (the announcer). */
  changed: () => void;
  /** Records validated when acknowledged, used instead of validating the body again. */
  validated: ValidatedRecords;
  /** Work that must keep pace with applying, run in short steps between slices. */
  between?: BetweenSlices;
}

/**
 * Write work that must keep pace with applying: retention's size cap
 * (src/store/retention/keep-up.ts). While it is due, the applier runs its steps (a few ms each,
 * for as long as a slice would take) instead of a slice, so a flood cannot outgrow the cap by
 * more than about one slice.
 */
export interface BetweenSlices {
  /** A step is due before the next slice. */
  due(): boolean;
  /** Runs one short step. */
  step(): unknown;
  /**
   * How many more items the next slice may apply before a step is due again (half the cap
   * past it): bounds the overshoot however big a fast machine's slices grow.
   */
  room?(): number;
}

/** Applies the spool. */
export interface SpoolApplier {
  /**
   * Applies one slice (sized to hold the event loop about `targetMs`, by default 12 ms, or
   * 40 ms once ingest is quiet); throws (and remembers) the store's error.
   */
  applySlice(targetMs?: number): void;
  /**
   * One unit of write work: a step of {@link SpoolApplierOptions.between} when one is due,
   * otherwise a slice ({@link applySlice}); throws the store's error like it.
   */
  advance(targetMs?: number): void;
  /** Applies on the timer after `delayMs`, unless already scheduled or nothing is spooled. */
  schedule(delayMs: number): void;
  /** Applies slice after slice for a reader (yielding between them) until empty or `deadline`. */
  /**
   * …or until `done()` (a read waits only for what was acknowledged before it: under a load
   * faster than applying, the backlog never reaches zero and "until empty" meant the full 5 s).
   */
  drain(deadline: number, done?: () => boolean): Promise<void>;
  /** The store's error from the last slice, or null once one succeeds. */
  failing(): Error | null;
  /** The measured cost of applying one item, in ms (a moving average). */
  msPerItem(): number;
  close(): void;
}

/** Rebuilds a spooled request's batch; the body parsed when it was acknowledged. */
function toRecord(r: SpooledRequest) {
  const { batch } = JSON.parse(r.body.toString('utf8')) as { batch: unknown[] };
  return acceptedRecord(
    { receivedMs: r.receivedMs, userAgent: r.userAgent ?? undefined },
    { sha256: r.keySha256, prefix: r.keyPrefix },
    r.body.length,
    batch,
  );
}

/** The applier of one store's spool. */
export function createSpoolApplier(options: SpoolApplierOptions): SpoolApplier {
  const { store, bus, backlog, lastGroupMs, nearlyFull, changed, validated, between } = options;
  const recordOf = (r: SpooledRequest): BatchRecord => validated.take(r) ?? toRecord(r);
  let failing: Error | null = null;
  let lastSliceMs = -Infinity;
  let readers = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  // The measured cost of applying one item (moving average), which sizes the slices.
  let msPerItem = 0.05;

  /** What {@link BetweenSlices.room} allows; a failing store says so to the steps, not here. */
  function roomLeft(): number {
    try {
      return between?.room?.() ?? Infinity;
    } catch {
      return Infinity;
    }
  }

  /** How long the next slice aims to hold the loop. */
  function sliceTarget(now: number): number {
    const quiet = now - lastGroupMs() > QUIET_MS;
    // A spool filling up under a flood: acknowledgements are about to wait for room, so
    // applying takes the slices that cost least per call (see FULL_SPOOL_SLICE_MS).
    return nearlyFull() ? FULL_SPOOL_SLICE_MS : quiet ? QUIET_SLICE_MS : SLICE_TARGET_MS;
  }

  function applySlice(targetMs?: number): void {
    const started = performance.now();
    let applied;
    try {
      targetMs ??= sliceTarget(started);
      const sized = Math.round(targetMs / msPerItem);
      applied = store.spool.apply(Math.max(1, Math.min(sized, roomLeft())), recordOf);
    } catch (error) {
      failing = error instanceof Error ? error : new Error(String(error));
      changed();
      throw failing;
    } finally {
      lastSliceMs = performance.now();
    }
    failing = null;
    if (applied.length === 0) {
      // Someone emptied the table (clear-all): count again.
      Object.assign(backlog, store.spool.backlog());
      validated.clear();
      return;
    }
    let items = 0;
    for (const a of applied) {
      items += a.request.payloads;
      backlog.requests--;
      backlog.payloads -= a.request.payloads;
      publishWritten(bus, a.record, a.written, backlog.payloads < ROW_EVENTS_BELOW);
    }
    changed();
    if (items > 0) {
      const measured = (performance.now() - started) / items;
      msPerItem = Math.min(10, Math.max(0.001, (msPerItem + measured) / 2));
    }
  }

  let betweenFailedMs = -Infinity;

  function advance(targetMs?: number): void {
    if (between && performance.now() - betweenFailedMs > RETRY_MS) {
      try {
        if (between.due()) {
          // Steps (each its own short transaction) for as long as the slice would have held
          // the loop: one step a timer turn spent more time between steps than in them — a
          // 1 M-item backlog past the cap was applied at 2,000 calls/s.
          const started = performance.now();
          const budget = targetMs ?? sliceTarget(started);
          do between.step();
          while (performance.now() - started < budget && between.due());
          return;
        }
      } catch {
        // A failing step (disk full, say) must not stop applying: the acknowledged calls come
        // first; the step is tried again after RETRY_MS (and by the next pass).
        betweenFailedMs = performance.now();
      }
    }
    applySlice(targetMs);
  }

  function schedule(delayMs: number): void {
    if (timer || closed || backlog.requests === 0) return;
    timer = setTimeout(tick, delayMs);
    timer.unref();
  }

  function tick(): void {
    timer = undefined;
    if (backlog.requests === 0) return;
    const now = performance.now();
    // While flushes keep arriving, acknowledging them comes first; applying takes the quiet
    // moments, and at least one slice every STARVE_MS. Not once the spool is past half its
    // bound: acknowledgements will wait for room anyway, and waiting for a quiet moment left
    // the loop idle between a flood's requests (4–7% of a flood's time in the profile).
    if (
      readers === 0 &&
      !nearlyFull() &&
      now - lastGroupMs() < BUSY_MS &&
      now - lastSliceMs < STARVE_MS
    ) {
      schedule(BUSY_MS);
      return;
    }
    try {
      advance();
    } catch {
      schedule(RETRY_MS);
      return;
    }
    schedule(0);
  }

  return {
    applySlice,
    advance,
    schedule,
    async drain(deadline, done = () => backlog.requests === 0) {
      readers++;
      try {
        while (!done() && backlog.requests > 0 && performance.now() < deadline) {
          advance();
          if (!done() && backlog.requests > 0) await new Promise((r) => setImmediate(r));
        }
      } finally {
        readers--;
      }
    },
    failing: () => failing,
    msPerItem: () => msPerItem,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
