/**
 * WAL checkpoints off the request path, and the bound on the WAL's size (docs/reliability.md).
 *
 * With SQLite's default auto-checkpoint, whichever commit pushes the WAL past 1,000 pages
 * copies the WAL back into the database and fsyncs — inside an ingest request, which then
 * sets the p99. Instead the writer turns auto-checkpointing off and a worker thread, with its
 * own connection, runs `PASSIVE` checkpoints on a timer: they copy pages back without
 * blocking anyone — every 100 ms while the WAL keeps growing, every 500 ms once it stopped.
 * (At 500 ms throughout, a flood filled the soft bound three times between two of them, and
 * the writer's restarts below copied the rest themselves: 16–46 ms each, 10–12% of the event
 * loop; at 100 ms they take half that, docs/benchmarks-history.md.) But a passive checkpoint never
 * *resets* a WAL a steady writer keeps appending to (issue 19: 189 MB in a minute, 16.5 GB in
 * ten), so the writer itself, between its own transactions, finishes the job
 * ({@link createWalGuard}):
 *
 * - past the soft bound, before its next write, a `RESTART` checkpoint: it copies only the
 *   frames the worker has not reached yet and starts the log again from its first frame. The
 *   file is not cut (`journal_size_limit` trims it back to the soft bound at the next write),
 *   so under load the same 16 MiB is written over and over: no ftruncate, no new blocks to
 *   allocate (a few percent of an apply slice's time, docs/benchmarks-history.md). The writer is
 *   the only writer and reads are short, so nothing makes it wait but the worker's checkpoint
 *   lock;
 * - past the hard bound (the worker fell far behind, or another process holds a read open),
 *   ingest waits for that checkpoint (up to 5 s) and is refused with 503 rather than let the
 *   WAL grow further;
 * - a second after the last write, a `TRUNCATE`: the WAL is empty once load stops.
 *
 * Only the writer's connection ever takes the write lock: a checkpointer that did (RESTART or
 * TRUNCATE from the worker) would make the writer's deferred transactions, which read before
 * they write, fail at once with SQLITE_BUSY.
 *
 * The worker is plain CommonJS evaluated from a string so it runs the same from `dist/`, from
 * TypeScript sources under vitest, and from the Electron bundle.
 */
import type Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { nativeBindingOptions } from './native-binding.js';

/** Past this size the writer restarts the WAL before its next transaction. */
export const WAL_SOFT_BYTES = 16 * 1024 * 1024;
/** Past this size ingest waits for that restart or is refused: the stated bound. */
export const WAL_HARD_BYTES = 64 * 1024 * 1024;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const done = new Int32Array(workerData.done);
const finish = () => { Atomics.store(done, 0, 1); Atomics.notify(done, 0); };
let db;
try {
  const Database = require(workerData.driver);
  db = new Database(workerData.path, { fileMustExist: true, ...workerData.binding });
  db.pragma('busy_timeout = 1000');
} catch {
  finish();
}
let timer;
let lastFrames = 0;
const tick = () => {
  let frames = lastFrames;
  try { frames = db.pragma('wal_checkpoint(PASSIVE)')[0].log; } catch { /* retried on the next tick */ }
  const writing = frames > 0 && frames !== lastFrames;
  lastFrames = frames;
  timer = setTimeout(tick, writing ? workerData.activeMs : workerData.intervalMs);
};
if (db) timer = setTimeout(tick, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearTimeout(timer);
  try { db?.close(); } catch { /* closing anyway */ }
  finish();
  parentPort.close();
});
`;

/** A running background checkpointer. */
export interface Checkpointer {
  /**
   * Stops the worker and waits (up to 2 s, synchronously: close stays synchronous) until its
   * connection is closed, so the writer's final checkpoint on close is the last word.
   */
  stop(): void;
}

/** How often the worker checkpoints. */
export interface CheckpointerOptions {
  /** While the WAL keeps growing (default 100 ms). */
  activeMs?: number;
  /** Once it stopped (default 500 ms). */
  intervalMs?: number;
}

/**
 * Starts checkpointing `path` from a worker thread. Returns `null` for an in-memory database
 * (nothing to checkpoint) — callers then keep SQLite's auto-checkpoint.
 */
export function startCheckpointer(
  path: string,
  options: CheckpointerOptions = {},
): Checkpointer | null {
  if (path === ':memory:' || path === '') return null;
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const done = new SharedArrayBuffer(4);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      path,
      driver,
      done,
      binding: nativeBindingOptions(),
      activeMs: options.activeMs ?? 100,
      intervalMs: options.intervalMs ?? 500,
    },
  });
  // The checkpointer never keeps the process alive on its own, and a failure in it (say, the
  // file vanished) only means the writer's guard and close do the checkpoints.
  worker.unref();
  worker.on('error', () => {});
  return {
    stop: () => {
      worker.postMessage('stop');
      Atomics.wait(new Int32Array(done), 0, 0, 2000);
    },
  };
}

/** The WAL could not be checkpointed back under its bound: nothing was written. */
export class WalBoundError extends Error {
  constructor(bytes: number) {
    super(
      `the write-ahead log is ${Math.round(bytes / 1048576)} MiB, past its bound, and another ` +
        'connection keeps it from being checkpointed; writes resume once that reader finishes',
    );
    this.name = 'WalBoundError';
  }
}

/** The writer's side of the bound (see the module comment). */
export interface WalGuard {
  /**
   * Call before each write transaction. Past the soft bound it restarts the WAL; past the
   * hard one a `strict` caller (ingest) gets a {@link WalBoundError} if that fails — it
   * answers 503 and writes nothing — while a lenient one (derived facts before a read) goes
   * ahead with its small write.
   */
  beforeWrite(strict: boolean): void;
  /** Stops the idle timer. */
  stop(): void;
}

/** How long after the last write the WAL is truncated. */
const IDLE_MS = 1000;
/** After a checkpoint that another reader blocked, how long before trying below the hard bound. */
const RETRY_MS = 1000;

/** Builds the writer's guard over its own connection `db`. */
export function createWalGuard(
  db: Database.Database,
  path: string,
  bytes: { soft: number; hard: number } = { soft: WAL_SOFT_BYTES, hard: WAL_HARD_BYTES },
): WalGuard {
  const wal = `${path}-wal`;
  const size = (): number => {
    try {
      return statSync(wal).size;
    } catch {
      return 0;
    }
  };
  let blockedUntil = 0;
  let idle: NodeJS.Timeout | undefined;
  /**
   * One checkpoint in `mode`, retried while the worker holds the checkpoint lock (or a reader
   * keeps the log from restarting) for up to `waitMs`. True once the log starts again from its
   * first frame; after a failure, the soft bound is not tried again for RETRY_MS.
   */
  const checkpoint = (mode: 'RESTART' | 'TRUNCATE', waitMs: number): boolean => {
    const timeout = db.pragma('busy_timeout', { simple: true }) as number;
    db.pragma('busy_timeout = 100');
    const until = performance.now() + waitMs;
    let restarted = false;
    try {
      do {
        try {
          const [result] = db.pragma(`wal_checkpoint(${mode})`) as { busy: number }[];
          restarted = result?.busy === 0;
        } catch {
          // busy: tried again below
        }
      } while (!restarted && performance.now() < until);
    } finally {
      db.pragma(`busy_timeout = ${timeout}`);
    }
    blockedUntil = restarted ? 0 : performance.now() + RETRY_MS;
    return restarted;
  };
  let lastIngestMs = 0;
  const onIdle = (): void => {
    idle = undefined;
    // A reader's small flush of derived facts does not postpone the truncate; ingest does.
    const quietFor = performance.now() - lastIngestMs;
    if (quietFor < IDLE_MS) {
      idle = setTimeout(onIdle, IDLE_MS - quietFor);
      idle.unref();
      return;
    }
    if (!db.open || db.inTransaction || size() === 0) return;
    try {
      checkpoint('TRUNCATE', 0);
    } catch {
      // the next write or idle moment tries again
    }
  };
  return {
    beforeWrite(strict) {
      if (strict) lastIngestMs = performance.now();
      if (!idle) {
        idle = setTimeout(onIdle, IDLE_MS);
        idle.unref();
      }
      if (db.inTransaction) return;
      const now = size();
      if (now <= bytes.soft || (now <= bytes.hard && performance.now() < blockedUntil)) return;
      // The file's size is its high-water mark: past the soft bound, the log has outgrown it
      // (or was restarted and not written since, when the checkpoint costs next to nothing).
      const restarted = checkpoint('RESTART', strict && now > bytes.hard ? 5000 : 0);
      if (strict && !restarted && now > bytes.hard) throw new WalBoundError(now);
    },
    stop() {
      if (idle) clearTimeout(idle);
      idle = undefined;
    },
  };
}
