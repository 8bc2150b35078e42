/**
 * The retention runner: passes on a timer, each a sequence of small transactions with a turn
 * of the event loop between them, so ingest requests interleave with a pass instead of
 * waiting for it.
 */
import type { ReadStore, Store } from '../index.js';
import type { CallsPass } from './plan.js';
import { readRetentionSettings } from './settings.js';
import { createCallCount } from './call-count.js';
import { createContentSteps } from './content-steps.js';
import { createKeepUp } from './keep-up.js';
import { createRetentionSteps } from './steps.js';
import { createTally, noneDeleted } from './totals.js';
import { connectionOf } from '../connection.js';
import { holdRebuilds, rebuildDirtyProjects } from '../metrics/maintain.js';
import type { PassReport, Retention, RetentionOptions } from './types.js';

export type { DeletedCounts, PassReport, Retention, RetentionOptions } from './types.js';

const DAY_MS = 86_400_000;

const registry = new WeakMap<ReadStore, Retention>();

/** The retention runner started for `store` by the server, if any (for the admin routes). */
export const retentionFor = (store: ReadStore): Retention | undefined => registry.get(store);

/**
 * After a step, the pass rests as long as the step took: at most half the event loop goes to
 * retention, so applying the spool (and answering reads) keeps at least half its rate during a
 * pass. A bare turn of the loop was not enough: with apply slices waiting on a timer, steps
 * took the loop as soon as it was free.
 */
const REST_PER_STEP = 1;
/**
 * While the spool holds acknowledged calls not yet applied, a pass takes at most a quarter of
 * the loop: those calls are already durable but not yet on the dashboard, and a flood past the
 * size cap otherwise spent as much of the main thread deleting old calls as storing new ones
 * (a ten-minute flood: 5.7 M deleted, 18% of the bare baseline's rate instead of 24%). The size
 * cap is held meanwhile by the keep-up's steps between apply slices (./keep-up.ts).
 */
const REST_UNDER_BACKLOG = 3;

/** Creates the retention runner for `store` (not started). */
export function createRetention(store: Store, options: RetentionOptions = {}): Retention {
  const db = connectionOf(store);
  const now = options.now ?? Date.now;
  // ~500 calls is 10–40 ms of deleting (five indexes, the rollups, sometimes a WAL checkpoint).
  const chunkRows = Math.max(1, options.chunkRows ?? 500);
  const countSlice = Math.max(1, options.countSlice ?? 25_000);
  const intervalMs = options.intervalMs ?? 60_000;
  const firstDelayMs = options.firstDelayMs ?? 10_000;
  const tally = createTally(db, now);
  // One count of the calls for the passes and the keep-up: each step that deletes calls tells
  // it, after its transaction, so neither deletes on a stale overshoot.
  const count = createCallCount(db, countSlice);
  const bare = createRetentionSteps(db, chunkRows, tally);
  const steps: typeof bare = {
    ...bare,
    calls(pass, limit) {
      const step = bare.calls(pass, limit);
      count.deleted(step.calls);
      return step;
    },
  };
  const contentSteps = createContentSteps(db, chunkRows, tally);
  const keepUp = createKeepUp(db, steps, count, {
    chunkRows,
    stepMs: options.keepUpStepMs,
    backlog: options.backlog,
    onDeleted: options.onKeepUp,
  });

  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let current: Promise<PassReport> | null = null;
  let lastPass: PassReport | null = null;
  /** Ends the current rest at once (stop: the pass then ends after its current step). */
  let interrupt: (() => void) | null = null;

  async function pass(): Promise<PassReport> {
    const settings = readRetentionSettings(db);
    const report: PassReport = {
      started_ms: now(),
      finished_ms: 0,
      settings,
      deleted: noneDeleted(),
      steps: 0,
      largest_step_calls: 0,
      longest_step_ms: 0,
      work_ms: 0,
      rest_ms: 0,
      forced_cuts: 0,
    };
    let lastStepMs = 0;
    const yieldToIo = (): Promise<void> =>
      new Promise((resolve) => {
        const factor = options.backlog?.() ? REST_UNDER_BACKLOG : REST_PER_STEP;
        const rest = Math.ceil(lastStepMs * factor);
        report.rest_ms += rest;
        const timer = setTimeout(wake, rest);
        function wake(): void {
          clearTimeout(timer);
          if (interrupt === wake) interrupt = null;
          resolve();
        }
        interrupt = wake;
      });
    const timed = <T>(fn: () => T): T => {
      const t0 = performance.now();
      try {
        return fn();
      } finally {
        report.steps++;
        lastStepMs = performance.now() - t0;
        report.work_ms += lastStepMs;
        report.longest_step_ms = Math.max(report.longest_step_ms, lastStepMs);
      }
    };
    // A forced cut can leave its project dirty (a long run left); it is rebuilt once, after the
    // pass, not before every apply slice meanwhile (see holdRebuilds).
    const release = holdRebuilds(db);
    try {
      const cutoff = now() - settings.max_age_days * DAY_MS;
      // max−min+1 bounds the count from above; count exactly only when that bound is over —
      // again each pass (whatever the kept count missed is corrected), in slices of ids with
      // rests between, like every other step: one count(*) over 15 M calls held the loop (and
      // every ingest answer) for 3 s.
      if (count.bound() > settings.max_calls) {
        count.reset();
        while (!stopped && !timed(() => count.countStep())) await yieldToIo();
      }
      // What the pass counted, never more than the overshoot as of each step: the keep-up
      // deletes by size meanwhile (./keep-up.ts), and a flood's new calls are its to chase.
      const overNow = (): number => Math.max(0, (count.value() ?? 0) - settings.max_calls);
      const overBy = overNow();
      const calls: CallsPass = { cutoff, overBy, keep: new Set(), cursor: 0 };
      while (!stopped) {
        calls.overBy = Math.min(calls.overBy, overNow());
        const step = timed(() => steps.calls(calls));
        report.deleted.calls += step.calls;
        report.largest_step_calls = Math.max(report.largest_step_calls, step.calls);
        if (step.forced) report.forced_cuts++;
        await yieldToIo();
        if (step.calls === 0) break;
      }
      for (const table of ['startups', 'rejections', 'agreements'] as const) {
        while (!stopped) {
          const n = timed(() => steps[table](cutoff));
          report.deleted[table] += n;
          await yieldToIo();
          if (n < chunkRows) break;
        }
      }
      if (contentSteps) {
        // Content goes with its calls: by age, and — when the size cap removed calls — the
        // content of sessions left without calls that is older than every call kept.
        const bySize = keepUp.takeDeleted() > 0 || overBy > 0;
        const keptSince = bySize ? contentSteps.oldestKeptCall() : null;
        const bounds: [(bound: number) => number, number][] = [[contentSteps.byAge, cutoff]];
        if (bySize) bounds.push([contentSteps.orphans, keptSince ?? Number.MAX_SAFE_INTEGER]);
        for (const [step, bound] of bounds) {
          while (!stopped) {
            const n = timed(() => step(bound));
            report.deleted.content += n;
            await yieldToIo();
            if (n < chunkRows) break;
          }
        }
      }
      const batches = { cutoff, batchCursor: 0 };
      while (!stopped) {
        const { deleted, more } = timed(() => steps.batches(batches));
        report.deleted.batches += deleted;
        await yieldToIo();
        if (!more) break;
      }
    } catch (error) {
      report.error = error instanceof Error ? error.message : String(error);
    } finally {
      release();
    }
    if (report.forced_cuts > 0 && db.open) {
      try {
        timed(() => rebuildDirtyProjects(db));
      } catch (error) {
        // Still marked: the next write rebuilds them.
        report.error ??= error instanceof Error ? error.message : String(error);
      }
    }
    report.finished_ms = now();
    lastPass = report;
    options.onPass?.(report);
    return report;
  }

  function runPass(): Promise<PassReport> {
    if (current) return current;
    const wasStopped = stopped;
    stopped = false;
    current = pass().finally(() => {
      current = null;
      if (wasStopped && !timer) stopped = true;
    });
    return current;
  }

  function arm(delay: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      // Settings may have changed while a pass ran: let it finish, then run a fresh one.
      void (current ?? Promise.resolve()).then(() => runPass()).finally(() => arm(intervalMs));
    }, delay);
    // A pending pass must never keep the process alive.
    timer.unref();
  }

  const retention: Retention = {
    start() {
      if (!stopped) return;
      stopped = false;
      registry.set(store, retention);
      keepUp.start();
      arm(firstDelayMs);
    },
    stop() {
      stopped = true;
      keepUp.stop();
      clearTimeout(timer);
      timer = undefined;
      interrupt?.();
      if (registry.get(store) === retention) registry.delete(store);
    },
    runPass,
    schedule() {
      keepUp.refresh();
      if (!stopped) arm(0);
    },
    get lastPass() {
      return lastPass;
    },
    get running() {
      return current !== null;
    },
    keepUp,
  };
  return retention;
}
