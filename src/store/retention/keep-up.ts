/**
 * Retention's size cap kept while calls arrive, not once a minute: between two apply slices
 * the applier asks {@link KeepUp.due} and, while the calls are over `max_calls`, runs short
 * steps ({@link KeepUp.step}, ~5 ms: the oldest whole runs, as a pass deletes them) before it
 * applies more, and its slices stop at 1.5× the cap ({@link KeepUp.room}). So under a flood
 * the file holds at most 1.5× the cap plus one request, instead of growing by everything
 * applied between two passes (issue 39: a 10,000-call cap reached
 * 1.49 M calls under a 60 s flood, because a pass rested three times each step while the spool
 * had a backlog and counted its overshoot once, at its start).
 *
 * Calls stored without the spool (a lone flush, stored before its answer) are caught up by
 * an idle check once a second, in the same steps.
 *
 * Age is left to the passes (./runner.ts): it is not what a flood outgrows.
 */
import type Database from 'better-sqlite3';
import { holdRebuilds, rebuildDirtyProjects } from '../metrics/maintain.js';
import type { CallCount } from './call-count.js';
import type { CallsPass } from './plan.js';
import { readRetentionSettings } from './settings.js';
import type { RetentionSteps } from './steps.js';

/** What the applier runs between its slices; see {@link createKeepUp}. */
export interface KeepUp {
  /** The calls are over the size cap (or not counted yet and may be): step before applying. */
  due(): boolean;
  /** One short step: a slice of the count, or the oldest calls over the cap. Returns calls deleted. */
  step(): number;
  /**
   * Calls the store may take before it is half its cap past it (Infinity until counted): the
   * applier's slice takes no more, so the overshoot stays within 1.5× the cap plus one request.
   */
  room(): number;
  /** Settings changed: read them again before the next check. */
  refresh(): void;
  /** Calls deleted by size since the last call (the pass then sweeps their sessions' content). */
  takeDeleted(): number;
  /** Starts the idle check. */
  start(): void;
  /** Stops the idle check; a held rebuild is released and run. */
  stop(): void;
}

/** Options for {@link createKeepUp}. */
export interface KeepUpOptions {
  /** How long one step aims to hold the event loop. Default 5 ms. */
  stepMs?: number;
  /** The most calls one step deletes (the pass's chunk). */
  chunkRows: number;
  /** Whether the spool has a backlog: then the applier drives the steps, not the idle check. */
  backlog?: () => boolean;
  /** Told after every step that deleted calls (the live stream, tests). */
  onDeleted?: (calls: number) => void;
}

/**
 * The fewest calls a step deletes, whatever it costs: a step has a fixed cost (its commit, the
 * forget hook's statements), so steps sized down to a slow machine's per-call cost got smaller
 * and dearer per call in turn — down to 18 calls at 0.6 ms each at load 15.
 */
const MIN_STEP_CALLS = 120;

/** How often the idle check runs, and how long after its last step a held rebuild waits. */
const IDLE_MS = 1000;

/** Builds the keep-up over `steps` (whose `calls` already tell `count` what they deleted). */
export function createKeepUp(
  db: Database.Database,
  steps: RetentionSteps,
  count: CallCount,
  options: KeepUpOptions,
): KeepUp {
  const stepMs = options.stepMs ?? 5;
  // Deleting a call costs ~25–30 µs with its rollups (docs/benchmarks.md): measured from then on.
  let msPerCall = 0.03;
  let cap: number | null = null;
  let capReadMs = -Infinity;
  let deletedSince = 0;
  let lastStepMs = -Infinity;
  let release: (() => void) | null = null;
  let idle: NodeJS.Timeout | undefined;
  let chained = false;

  /** The cap, read at most once a second (one settings row, parsed) or after a change. */
  function maxCalls(): number {
    const now = performance.now();
    if (cap === null || now - capReadMs > IDLE_MS) {
      cap = readRetentionSettings(db).max_calls;
      capReadMs = now;
    }
    return cap;
  }

  function due(): boolean {
    const n = count.value();
    return (n ?? count.bound()) > maxCalls();
  }

  function step(): number {
    const started = performance.now();
    lastStepMs = started;
    if (count.value() === null) {
      count.countStep();
      return 0;
    }
    const over = count.value()! - maxCalls();
    if (over <= 0) return 0;
    // Size only (cutoff 0: nothing is old enough by age), oldest whole runs first.
    const pass: CallsPass = { cutoff: 0, overBy: over, keep: new Set(), cursor: 0 };
    const limit = Math.min(
      options.chunkRows,
      Math.max(MIN_STEP_CALLS, Math.round(stepMs / msPerCall)),
    );
    const done = steps.calls(pass, limit);
    // Over by the count, yet nothing to delete: the count is wrong (it should never be, but a
    // step due forever would starve applying) — count again.
    if (done.calls === 0) count.reset();
    // A cut inside a run can leave its project to the rebuild: once, when the flood is over,
    // not before every apply slice meanwhile (see holdRebuilds).
    if (done.forced && !release) release = holdRebuilds(db);
    if (done.calls > 0) {
      const measured = (performance.now() - started) / done.calls;
      msPerCall = Math.min(1, Math.max(0.001, (msPerCall + measured) / 2));
      deletedSince += done.calls;
      options.onDeleted?.(done.calls);
    }
    return done.calls;
  }

  /** Steps on timers while due and nothing is spooled (the applier drives them otherwise). */
  function chain(): void {
    if (!idle || options.backlog?.() || !due()) {
      chained = false;
      return;
    }
    try {
      step();
    } catch {
      // Disk full, say: the next idle check (or pass) tries again.
      chained = false;
      return;
    }
    setTimeout(chain, 0).unref();
  }

  function settleRebuild(): void {
    if (!release) return;
    release();
    release = null;
    // Still marked when this fails: the next write rebuilds them.
    if (db.open) rebuildDirtyProjects(db);
  }

  function check(): void {
    try {
      if (release && performance.now() - lastStepMs > IDLE_MS) settleRebuild();
      if (!chained && !options.backlog?.() && due()) {
        chained = true;
        chain();
      }
    } catch {
      // A closed or failing store: the pass reports errors; this only tries again.
    }
  }

  return {
    due,
    step,
    room() {
      const n = count.value();
      const cap = maxCalls();
      return n === null ? Infinity : Math.max(0, Math.floor(cap * 1.5) - n);
    },
    refresh: () => (cap = null),
    takeDeleted() {
      const n = deletedSince;
      deletedSince = 0;
      return n;
    },
    start() {
      if (idle) return;
      idle = setInterval(check, IDLE_MS);
      idle.unref();
    },
    stop() {
      clearInterval(idle);
      idle = undefined;
      try {
        settleRebuild();
      } catch {
        // Closing: the next start's first write rebuilds what is marked.
      }
    },
  };
}
