/**
 * The read threads (issue 39): the API's reads run here, each on a worker thread with its own
 * read-only connection, while the server's thread only accepts, validates, spools, applies and
 * acknowledges. Reads wait in two lanes (./lanes.ts): a thread is kept for quick reads, so the
 * status, the summary or a session page answers while an export, a long series and a tool's
 * error groups hold the others. A read over its budget is stopped and answered 503, one whose
 * client went away is dropped or stopped, and a download streams with backpressure
 * (./download.ts).
 */
import { availableParallelism } from 'node:os';
import { Download } from './download.js';
import { LaneChooser, shapeOf, type Lane } from './lanes.js';
import type { FromReadWorker, ReadTask } from './protocol.js';
import { DEFAULT_WORKER_ENTRY, ReadThread } from './thread.js';

/** How long a read may run (or a download wait for its next chunk) before it is stopped. */
export const READ_BUDGET_MS = 30_000;

/** Options for {@link ReadPool}. */
export interface ReadPoolOptions {
  /** Threads that run any read; heavy reads use only these. Default: the cores, at least 2. */
  shared?: number;
  /** Threads kept for quick reads alone. Default 1. */
  reserved?: number;
  /** See {@link READ_BUDGET_MS}. */
  budgetMs?: number;
  /** A shared thread idle this long is ended (its memory returned). Default 60 s. */
  idleMs?: number;
  /** The worker's entry file (the desktop bundle names its own); default beside this module. */
  entry?: URL;
}

/** How a read went, for the `server-timing` header and the counters. */
export interface ReadTiming {
  lane: Lane;
  /** Waiting for a thread. */
  queuedMs: number;
  /** On the thread, to the answer (a download: to its first chunk). */
  readMs: number;
}

/** A read's answer: JSON text, an error, or a download's chunks. */
export type ReadAnswer = { timing: ReadTiming } & (
  | { kind: 'json'; text: string }
  | { kind: 'error'; status: number; message: string }
  /** No thread could load here: the caller answers it another way. */
  | { kind: 'unavailable'; reason: string }
  | {
      kind: 'download';
      contentType: string;
      filename?: string;
      chunks: AsyncIterableIterator<string>;
    }
);

/** Counters since the pool started. */
export interface ReadPoolStats {
  threads: number;
  busy: number;
  queued: number;
  served: number;
  /** Stopped past their budget. */
  overBudget: number;
  /** Dropped or stopped because their client went away. */
  abandoned: number;
  /** Failed because a thread crashed or could not start. */
  failed: number;
}

interface Job {
  id: number;
  task: ReadTask;
  lane: Lane;
  shape: string;
  queuedAt: number;
  startedAt: number;
  thread: ReadThread | null;
  timer: NodeJS.Timeout | null;
  settle: ((answer: ReadAnswer) => void) | null;
  download: Download | null;
}

/** A pool of read threads shared by every server of the process (see {@link sharedReadPool}). */
export class ReadPool {
  private readonly threads: ReadThread[] = [];
  private readonly queue: Record<Lane, Job[]> = { quick: [], heavy: [] };
  private readonly jobs = new Map<number, Job>();
  private readonly lanes = new LaneChooser();
  private readonly forgets = new Map<number, () => void>();
  private readonly shared: number;
  private readonly reserved: number;
  private readonly budgetMs: number;
  private readonly idleMs: number;
  private readonly entry: URL;
  private readonly idleSweep: NodeJS.Timeout;
  private nextId = 1;
  private startFailures = 0;
  private readonly counts = { served: 0, overBudget: 0, abandoned: 0, failed: 0 };

  constructor(options: ReadPoolOptions = {}) {
    this.shared = options.shared ?? Math.max(2, availableParallelism());
    this.reserved = options.reserved ?? 1;
    this.budgetMs = options.budgetMs ?? READ_BUDGET_MS;
    this.idleMs = options.idleMs ?? 60_000;
    this.entry = options.entry ?? DEFAULT_WORKER_ENTRY;
    this.idleSweep = setInterval(() => this.retireIdle(), Math.min(this.idleMs, 10_000));
    this.idleSweep.unref();
  }

  /**
   * Threads cannot start here (the worker's file is missing, or three in a row failed to load):
   * the server answers reads on its own thread instead, as before.
   */
  get broken(): boolean {
    return this.startFailures >= 3;
  }

  /** Starts the thread kept for quick reads, so the first view does not wait for it to load. */
  warm(): void {
    if (!this.threads.some((t) => t.reserved)) this.spawn(true);
  }

  /**
   * Runs one read. Resolves with its answer; a read whose `signal` aborts (the client went
   * away) resolves with a 499 nobody reads, and its thread is freed or stopped.
   */
  read(request: Omit<ReadTask, 'k' | 'id'>, signal?: AbortSignal): Promise<ReadAnswer> {
    const id = this.nextId++;
    const shape = shapeOf(request.name, new URLSearchParams(request.query));
    const job: Job = {
      id,
      task: { k: 'read', id, ...request },
      lane: this.lanes.lane(request.name, shape),
      shape,
      queuedAt: performance.now(),
      startedAt: 0,
      thread: null,
      timer: null,
      settle: null,
      download: null,
    };
    return new Promise((resolve) => {
      job.settle = resolve;
      this.jobs.set(id, job);
      this.queue[job.lane].push(job);
      signal?.addEventListener('abort', () => this.abandon(job), { once: true });
      this.pump();
    });
  }

  /** Closes every thread's connection to `db` (before its file may be deleted). */
  async forget(db: string): Promise<void> {
    const live = this.threads.filter((t) => !t.gone);
    await Promise.all(
      live.map(
        (thread) =>
          new Promise<void>((resolve) => {
            const ack = this.nextId++;
            // A thread busy with a long read answers after it; closing the server must not wait.
            const timer = setTimeout(() => {
              this.forgets.delete(ack);
              void thread.stop().then(resolve);
            }, 2_000);
            this.forgets.set(ack, () => {
              clearTimeout(timer);
              resolve();
            });
            thread.send({ k: 'forget', db, ack });
          }),
      ),
    );
  }

  /** The pool's state and counters. */
  stats(): ReadPoolStats {
    return {
      threads: this.threads.length,
      busy: this.threads.filter((t) => t.task !== null).length,
      queued: this.queue.quick.length + this.queue.heavy.length,
      ...this.counts,
    };
  }

  /** Ends every thread (tests; the process's end does it anyway). */
  async close(): Promise<void> {
    clearInterval(this.idleSweep);
    await Promise.all([...this.threads].map((t) => t.stop()));
  }

  private pump(): void {
    for (;;) {
      const quick = this.queue.quick[0];
      const quickThread = quick ? this.idleThread('quick') : null;
      if (quick && quickThread) {
        this.start(this.queue.quick.shift()!, quickThread);
        continue;
      }
      const heavy = this.queue.heavy[0];
      const heavyThread = heavy ? this.idleThread('heavy') : null;
      if (heavy && heavyThread) {
        this.start(this.queue.heavy.shift()!, heavyThread);
        continue;
      }
      return;
    }
  }

  /** An idle thread for a read of `lane`, started if none is idle and the lane may have one. */
  private idleThread(lane: Lane): ReadThread | null {
    const idle = this.threads.filter((t) => t.task === null && !t.gone);
    if (lane === 'quick') {
      const found = idle.find((t) => t.reserved) ?? idle[0];
      if (found) return found;
      if (this.count(true) < this.reserved) return this.spawn(true);
      return this.count(false) < this.shared ? this.spawn(false) : null;
    }
    return (
      idle.find((t) => !t.reserved) ?? (this.count(false) < this.shared ? this.spawn(false) : null)
    );
  }

  private count(reserved: boolean): number {
    return this.threads.filter((t) => t.reserved === reserved && !t.gone).length;
  }

  private spawn(reserved: boolean): ReadThread {
    const thread = new ReadThread(this.entry, reserved, {
      message: (t, m) => this.onMessage(t, m),
      exit: (t, reason) => this.onExit(t, reason),
    });
    this.threads.push(thread);
    return thread;
  }

  private start(job: Job, thread: ReadThread): void {
    job.thread = thread;
    job.startedAt = performance.now();
    thread.task = job.id;
    this.arm(job, true);
    thread.send(job.task);
  }

  /** Runs (or stops) the budget: a read past it is stopped and answered 503. */
  private arm(job: Job, on: boolean): void {
    if (job.timer) clearTimeout(job.timer);
    job.timer = null;
    if (!on) return;
    job.timer = setTimeout(() => {
      this.counts.overBudget++;
      const budget =
        this.budgetMs >= 1000 ? `${Math.round(this.budgetMs / 1000)} s` : `${this.budgetMs} ms`;
      const message = `${job.task.name} took longer than ${budget} and was stopped: narrow the time range or the filters`;
      this.finish(job, { kind: 'error', status: 503, message });
      job.download?.fail(message);
      void job.thread?.stop();
    }, this.budgetMs);
    job.timer.unref();
  }

  private timing(job: Job): ReadTiming {
    const now = performance.now();
    return {
      lane: job.lane,
      queuedMs: (job.startedAt || now) - job.queuedAt,
      readMs: job.startedAt ? now - job.startedAt : 0,
    };
  }

  /** Answers the read (once) and records how long its shape took. */
  private finish(job: Job, answer: DistributiveOmit<ReadAnswer, 'timing'>): void {
    const settle = job.settle;
    job.settle = null;
    if (!settle) return;
    const timing = this.timing(job);
    this.lanes.record(job.shape, timing.readMs);
    settle({ ...answer, timing } as ReadAnswer);
  }

  /** The thread is free again (or gone): the job leaves the pool, the next read may start. */
  private release(job: Job): void {
    this.arm(job, false);
    this.jobs.delete(job.id);
    if (job.thread && job.thread.task === job.id) {
      job.thread.task = null;
      job.thread.idleSince = performance.now();
    }
    this.pump();
  }

  private onMessage(thread: ReadThread, message: FromReadWorker): void {
    if (message.k === 'ready') {
      thread.loaded = true;
      this.startFailures = 0;
      return;
    }
    if (message.k === 'forgot') {
      this.forgets.get(message.ack)?.();
      this.forgets.delete(message.ack);
      return;
    }
    const job = this.jobs.get(message.id);
    if (!job || job.thread !== thread) return;
    switch (message.k) {
      case 'json':
        this.counts.served++;
        this.finish(job, { kind: 'json', text: message.text });
        return this.release(job);
      case 'error':
        this.counts.served++;
        this.finish(job, { kind: 'error', status: message.status, message: message.message });
        return this.release(job);
      case 'head':
        this.counts.served++;
        job.download = new Download({
          more: () => thread.send({ k: 'more', id: job.id }),
          cancel: () => thread.send({ k: 'cancel', id: job.id }),
          waiting: (on) => this.arm(job, on),
        });
        return this.finish(job, {
          kind: 'download',
          contentType: message.contentType,
          filename: message.filename,
          chunks: job.download,
        });
      case 'chunk':
        return job.download?.push(message.text);
      case 'end':
        job.download?.end();
        return this.release(job);
      case 'abort':
        job.download?.fail(message.message);
        return this.release(job);
    }
  }

  private onExit(thread: ReadThread, reason: string | null): void {
    const at = this.threads.indexOf(thread);
    if (at >= 0) this.threads.splice(at, 1);
    // Loaded nothing: the entry is missing or broken here.
    if (reason && !thread.loaded) this.startFailures++;
    const job = thread.task === null ? undefined : this.jobs.get(thread.task);
    if (job) {
      if (reason && !thread.loaded) this.finish(job, { kind: 'unavailable', reason });
      else if (reason) {
        this.counts.failed++;
        this.finish(job, { kind: 'error', status: 500, message: `internal error: ${reason}` });
        job.download?.fail(reason);
      }
      job.thread = null;
      this.arm(job, false);
      this.jobs.delete(job.id);
    }
    this.pump();
  }

  /** The client went away: a queued read is dropped, a running one freed or stopped. */
  private abandon(job: Job): void {
    if (!this.jobs.has(job.id)) return;
    this.counts.abandoned++;
    const queued = this.queue[job.lane].indexOf(job);
    if (queued >= 0) {
      this.queue[job.lane].splice(queued, 1);
      this.jobs.delete(job.id);
      return this.finish(job, CLIENT_LEFT);
    }
    if (job.download) {
      // Cancelled at its next chunk; the thread says `end` and is free again.
      void job.download.return();
      return;
    }
    // A synchronous query cannot be interrupted: its thread is ended and another started later.
    this.finish(job, CLIENT_LEFT);
    void job.thread?.stop();
  }

  private retireIdle(): void {
    const now = performance.now();
    for (const t of this.threads)
      if (!t.reserved && t.task === null && now - t.idleSince > this.idleMs) void t.stop();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The answer of a read whose client went away (nobody reads it; nginx's code for it). */
const CLIENT_LEFT = { kind: 'error', status: 499, message: 'client closed the request' } as const;

let sharedPool: ReadPool | null = null;

/**
 * The process's read pool, made on first use: every server of the process shares its threads
 * (one per process in the CLI and the app; many in a test run, where starting threads per
 * server would cost a second each).
 */
export function sharedReadPool(): ReadPool {
  sharedPool ??= new ReadPool();
  return sharedPool;
}
