/**
 * One read thread as the pool sees it: started from ./worker.ts (built, or from source through
 * tsx), its messages routed to the read it is running, and its end — asked for or not — told to
 * the pool once.
 */
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { currentNativeBinding } from '../../store/index.js';
import type { FromReadWorker, ReadWorkerData, ToReadWorker } from './protocol.js';

// Run from source (tests, benches), this module is a .ts file and so is the worker beside it.
const FROM_SOURCE = extname(fileURLToPath(import.meta.url)) === '.ts';

/**
 * The worker beside this module: `dist/server/read-pool/worker.js` as built, `worker.ts` from
 * source. The desktop bundle puts its `worker.js` beside its `index.js`, which is where this
 * module's code lands there too. (A path, not `new URL('./…', import.meta.url)`, which the
 * bundler would take for an asset to copy.)
 */
export const DEFAULT_WORKER_ENTRY = pathToFileURL(
  join(dirname(fileURLToPath(import.meta.url)), FROM_SOURCE ? 'worker.ts' : 'worker.js'),
);

/**
 * A .ts entry is loaded through tsx, whose hooks a worker does not get from `--import` on
 * Node 20: it registers them first.
 */
function startWorker(entry: URL, data: ReadWorkerData): Worker {
  const workerData = { readPool: data };
  if (extname(fileURLToPath(entry)) !== '.ts') return new Worker(entry, { workerData });
  const api = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(api)}).then((m) => m.register()).then(() => import(${JSON.stringify(entry.href)}))`;
  return new Worker(code, { eval: true, workerData });
}

/** Where a thread's messages and end go. */
export interface ThreadListener {
  message(thread: ReadThread, message: FromReadWorker): void;
  /** The thread ended (asked to, failed or crashed); `reason` says why when it was not asked. */
  exit(thread: ReadThread, reason: string | null): void;
}

/** One worker thread with a read-only connection per database it has read. */
export class ReadThread {
  private readonly worker: Worker;
  private stopping = false;
  private ended = false;
  private running: number | null = null;
  /** Its modules loaded (it said `ready`). */
  loaded = false;
  /** When it last finished a read (for retiring idle threads). */
  idleSince = performance.now();

  constructor(
    entry: URL,
    /** A reserved thread runs quick reads only; the pool keeps it while the server runs. */
    readonly reserved: boolean,
    listener: ThreadListener,
  ) {
    this.worker = startWorker(entry, { nativeBinding: currentNativeBinding() });
    let failure: string | null = null;
    this.worker.on('message', (message: FromReadWorker) => listener.message(this, message));
    this.worker.on('error', (error) => {
      failure ??= `the read thread failed: ${error.message}`;
    });
    this.worker.on('exit', (code) => {
      this.ended = true;
      const reason = this.stopping
        ? null
        : (failure ?? `the read thread stopped (exit code ${code})`);
      listener.exit(this, reason);
    });
    // The server decides when the process ends; an idle read thread never holds it open.
    // (After the listeners: adding a `message` listener refs the worker's port again.)
    this.worker.unref();
  }

  /** The read it runs (its id), or null while idle. */
  get task(): number | null {
    return this.running;
  }

  /**
   * Gives it a read (or frees it, with null). A thread holds the process open only while it
   * runs a read — a caller awaiting an answer must get it — never while idle.
   */
  set task(id: number | null) {
    this.running = id;
    if (this.gone) return;
    if (id === null) this.worker.unref();
    else this.worker.ref();
  }

  /** Has it ended (or been told to)? */
  get gone(): boolean {
    return this.ended || this.stopping;
  }

  send(message: ToReadWorker): void {
    if (!this.gone) this.worker.postMessage(message);
  }

  /**
   * Ends the thread now, whatever it is doing — a read past its budget or whose client left is
   * stopped this way (a synchronous query cannot be interrupted from outside its thread).
   */
  stop(): Promise<void> {
    if (this.gone) return Promise.resolve();
    this.stopping = true;
    return this.worker.terminate().then(() => undefined);
  }
}
