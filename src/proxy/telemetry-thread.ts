/**
 * The relay's handle on the telemetry thread (telemetry-worker.ts). On the relay's path it costs
 * one copy and one `postMessage` per chunk; if the thread fails, telemetry stops and the relay
 * carries on exactly as before.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { preciseNow, type ObserverStats } from './observer.js';
import type { SinkReport } from './sink.js';
import type { ProxyTransport } from './telemetry.js';

/** What the thread is started with. */
export interface TelemetryInit {
  sessionId: string;
  transport: ProxyTransport;
  clientName?: string;
  key: string;
  /** The dashboard to find, or start there (`--url`, `--db`). */
  url: string;
  db?: string;
}

/** Bytes one way: `c` from the client, `s` from the server; `t` = when the relay saw them. */
export interface Chunk {
  k: 'c' | 's';
  b: Uint8Array;
  t: number;
}

/** Messages to the thread: chunks (in the order the relay saw them), and control. */
export type ToWorker =
  { k: 'chunks'; chunks: Chunk[] } | { k: 'end'; t: number } | { k: 'close'; budget: number };

/** What closing reports. */
export interface TelemetryResult {
  report: SinkReport;
  stats: ObserverStats | null;
}

// Run from source (tests, benches), the entry is a .ts file loaded through tsx, whose hooks a
// worker does not get from `--import` on Node 20: it registers them first.
const FROM_SOURCE = extname(fileURLToPath(import.meta.url)) === '.ts';

function startWorker(entry: URL, init: TelemetryInit): Worker {
  if (!FROM_SOURCE) return new Worker(entry, { workerData: init });
  const source = entry.href.replace(/\.js$/, '.ts');
  const api = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(api)}).then((m) => m.register()).then(() => import(${JSON.stringify(source)}))`;
  return new Worker(code, { eval: true, workerData: init });
}

/**
 * How long copies wait to be handed over together. Waking the thread for every chunk costs a
 * context switch each time, which a busy 2-core machine feels on the relay; a few milliseconds
 * of batching costs telemetry nothing (each chunk keeps its own timestamp).
 */
const HANDOVER_MS = 5;

/** Starts and talks to the telemetry thread. */
export class TelemetryThread {
  private readonly worker: Worker;
  private failure: string | null = null;
  private queue: Chunk[] = [];
  private transfer: ArrayBuffer[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  /**
   * `entry` is the worker's entry file (as built: `.js`), one that calls
   * `runTelemetryWorker` from telemetry-worker.ts.
   */
  constructor(entry: URL, init: TelemetryInit) {
    this.worker = startWorker(entry, init);
    this.worker.on('error', (error) => {
      this.failure ??= `the telemetry thread failed: ${error.message}`;
    });
    this.worker.on('exit', () => {
      this.failure ??= 'the telemetry thread stopped';
    });
    // The relay decides when the process ends; close() holds it open for the final flush.
    this.worker.unref();
  }

  /** A copy of bytes the client sent. */
  client(chunk: Buffer): void {
    this.post('c', chunk);
  }

  /** A copy of bytes the server sent. */
  server(chunk: Buffer): void {
    this.post('s', chunk);
  }

  /** The server is gone: calls still waiting for an answer are recorded as crashed. */
  end(): void {
    this.handOver();
    this.send({ k: 'end', t: preciseNow() });
  }

  /**
   * Final flush (see TelemetrySink.close: `budgetMs` without progress ends it), stops
   * the dashboard the thread started if it did, then stops the thread. Never rejects.
   */
  async close(budgetMs = 2000): Promise<TelemetryResult> {
    // A thread that already failed (or exited) will not answer, nor exit again.
    const closed = this.failure ? Promise.resolve(null) : this.answer();
    this.handOver();
    this.send({ k: 'close', budget: budgetMs });
    const result = await closed;
    await this.worker.terminate().catch(() => {});
    return (
      result ?? {
        report: {
          added: { calls: 0, startups: 0 },
          sent: { calls: 0, startups: 0 },
          dropped: { calls: 0, startups: 0 },
          reason: this.failure ?? 'the telemetry thread did not answer',
        },
        stats: null,
      }
    );
  }

  /** The thread's answer to `close`, or `null` if it exits or hangs instead. */
  private answer(): Promise<TelemetryResult | null> {
    this.worker.ref();
    return new Promise<TelemetryResult | null>((resolve) => {
      this.worker.once('message', (m: { k: string } & TelemetryResult) =>
        resolve(m.k === 'closed' ? { report: m.report, stats: m.stats } : null),
      );
      this.worker.once('exit', () => resolve(null));
      // Only a guard against a stuck thread: the sink's own limits end a healthy close.
      setTimeout(() => resolve(null), 30_000).unref();
    });
  }

  private post(k: 'c' | 's', chunk: Buffer): void {
    if (this.failure) return;
    // A copy of just these bytes (a chunk may be a view on a larger pooled buffer), moved
    // rather than cloned into the thread.
    const copy = new Uint8Array(chunk);
    this.queue.push({ k, b: copy, t: preciseNow() });
    this.transfer.push(copy.buffer);
    if (!this.timer) {
      this.timer = setTimeout(() => this.handOver(), HANDOVER_MS);
      this.timer.unref();
    }
  }

  /** Hands the queued copies over in one message. */
  private handOver(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.queue.length === 0) return;
    const chunks = this.queue;
    const transfer = this.transfer;
    this.queue = [];
    this.transfer = [];
    this.send({ k: 'chunks', chunks }, transfer);
  }

  private send(message: ToWorker, transfer: ArrayBuffer[] = []): void {
    if (this.failure) return;
    try {
      this.worker.postMessage(message, transfer);
    } catch (error) {
      this.failure ??= `the telemetry thread failed: ${(error as Error).message}`;
    }
  }
}
