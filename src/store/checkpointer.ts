/**
 * WAL checkpoints off the request path.
 *
 * With SQLite's default auto-checkpoint, whichever commit pushes the WAL past 1,000 pages
 * copies the WAL back into the database and fsyncs — inside an ingest request, which then
 * sets the p99. Instead the writer turns auto-checkpointing off and a worker thread, with its
 * own connection, runs `PASSIVE` checkpoints (which never block readers or the writer) on a
 * timer. The worker is plain CommonJS evaluated from a string so it runs the same from `dist/`,
 * from TypeScript sources under vitest, and from the Electron bundle.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { nativeBindingOptions } from './native-binding.js';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true, ...workerData.binding });
db.pragma('busy_timeout = 1000');
let busy = false;
const timer = setInterval(() => {
  if (busy) return;
  busy = true;
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* retried on the next tick */ }
  busy = false;
}, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** A running background checkpointer. */
export interface Checkpointer {
  /** Asks the worker to close its connection and exit; does not wait (close stays synchronous). */
  stop(): void;
}

/**
 * Starts checkpointing `path` every `intervalMs` from a worker thread. Returns `null` for an
 * in-memory database (nothing to checkpoint) — callers then keep SQLite's auto-checkpoint.
 */
export function startCheckpointer(path: string, intervalMs = 500): Checkpointer | null {
  if (path === ':memory:' || path === '') return null;
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { path, driver, intervalMs, binding: nativeBindingOptions() },
  });
  // The checkpointer never keeps the process alive on its own, and a failure in it (say, the
  // file vanished) only means checkpoints fall back to the next open or close.
  worker.unref();
  worker.on('error', () => {});
  return { stop: () => worker.postMessage('stop') };
}
