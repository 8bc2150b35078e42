/**
 * The relay's handle on the telemetry thread (telemetry-worker.ts). On the relay's path it costs
 * one copy into a shared ring per chunk (traffic-ring.ts): no allocation, no message, no wakeup
 * while the thread is busy. The thread runs at the lowest priority, so it may fall behind while
 * the machine is busy; when the ring is full the relay stops copying (the gap is marked, counted
 * and reported) rather than wait or let memory grow. If the thread fails, telemetry stops and
 * the relay carries on exactly as before.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { preciseNow, type ObserverStats } from './observer.js';
import {
  createRing,
  NOTHING_LOST,
  RingWriter,
  type Direction,
  type LostBefore,
} from './traffic-ring.js';
import type { SinkReport } from './sink.js';
import type { ProxyTransport } from './telemetry.js';
import type { UserRedactionRules } from '../shared/redaction.js';

/** What the thread is started with. */
export interface TelemetryInit {
  sessionId: string;
  transport: ProxyTransport;
  clientName?: string;
  /** `--key`, when given; else the server's `serverInfo.name` decides (project-key.ts). */
  key?: string;
  /** The key if the server never names itself. */
  fallbackKey: string;
  /** Capture message bodies. */
  content: boolean;
  /** The user's redaction rules (`--redact`), beside the built-in ones. */
  redact: UserRedactionRules;
  /** The dashboard to find, or start there (`--url`, `--db`). */
  url: string;
  db?: string;
  /** The dashboard's owner token the CLI found (`--token`, $MCPULSE_DEVTOOLS_TOKEN, the file). */
  token?: string;
}

/** Messages to the thread (the traffic itself goes through the ring). */
export type ToWorker =
  | { k: 'end'; t: number; clean: boolean }
  | { k: 'close'; budget: number }
  | { k: 'stop-now'; reason: string };

/** What closing reports. */
export interface TelemetryResult {
  report: SinkReport;
  stats: ObserverStats | null;
  /** Bytes relayed but never observed because the thread was too far behind (0 normally). */
  skippedBytes: number;
}

/**
 * The ring's size: how far the thread may fall behind the relay before copies stop. Far past any
 * burst seen in tests and benches (20,000 pipelined calls are ~5 MB) or a 10 MB result, yet a
 * bound: a thread starved for minutes must not take the proxy's memory.
 */
export const RING_BYTES = 32 * 1024 * 1024;

/** What the thread gets as `workerData`: the init, and the ring's memory. */
export type TelemetryWorkerData = TelemetryInit & { ring: SharedArrayBuffer };

// Run from source (tests, benches), the entry is a .ts file loaded through tsx, whose hooks a
// worker does not get from `--import` on Node 20: it registers them first.
const FROM_SOURCE = extname(fileURLToPath(import.meta.url)) === '.ts';

function startWorker(entry: URL, init: TelemetryWorkerData): Worker {
  if (!FROM_SOURCE) return new Worker(entry, { workerData: init });
  const source = entry.href.replace(/\.js$/, '.ts');
  const api = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(api)}).then((m) => m.register()).then(() => import(${JSON.stringify(source)}))`;
  return new Worker(code, { eval: true, workerData: init });
}

/** Starts and talks to the telemetry thread. */
export class TelemetryThread {
  private readonly worker: Worker;
  private failure: string | null = null;
  private readonly ring: RingWriter;
  private skipped = 0;
  /** What was not copied since the last copy that fit (said with the next one). */
  private lost: Readonly<LostBefore> = NOTHING_LOST;

  /**
   * `entry` is the worker's entry file (as built: `.js`), one that calls
   * `runTelemetryWorker` from telemetry-worker.ts. `ringBytes` is for tests.
   */
  constructor(entry: URL, init: TelemetryInit, ringBytes = RING_BYTES) {
    const memory = createRing(ringBytes);
    this.ring = new RingWriter(memory);
    this.worker = startWorker(entry, { ...init, ring: memory });
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
    this.copy('client', chunk);
  }

  /** A copy of bytes the server sent. */
  server(chunk: Buffer): void {
    this.copy('server', chunk);
  }

  /** Bytes copied into the ring that the thread has not read yet. */
  get backlogBytes(): number {
    return this.ring.used;
  }

  /**
   * The server is gone. `clean` (the client closed, the server exited 0): requests still open
   * are sent as unanswered; otherwise calls still waiting are recorded as crashed.
   */
  end(clean = false): void {
    this.send({ k: 'end', t: preciseNow(), clean });
  }

  /**
   * Final flush (see TelemetrySink.close: `budgetMs` without progress ends it), stops
   * the dashboard the thread started if it did, then stops the thread. Never rejects.
   */
  async close(budgetMs = 2000): Promise<TelemetryResult> {
    // A thread that already failed (or exited) will not answer, nor exit again.
    const closed = this.failure ? Promise.resolve(null) : this.answer();
    this.send({ k: 'close', budget: budgetMs });
    const result = await closed;
    await this.worker.terminate().catch(() => {});
    return (
      result ?? {
        report: {
          added: { calls: 0, startups: 0, messages: 0 },
          sent: { calls: 0, startups: 0, messages: 0 },
          handedOff: { calls: 0, startups: 0, messages: 0 },
          dropped: { calls: 0, startups: 0, messages: 0 },
          reason: this.failure ?? 'the telemetry thread did not answer',
          spool: null,
        },
        stats: null,
        skippedBytes: this.skipped,
      }
    );
  }

  /** Cuts a {@link close} in progress short (a signal arrived while telemetry was flushing). */
  stopNow(reason: string): void {
    this.send({ k: 'stop-now', reason });
  }

  /** The thread's answer to `close`, or `null` if it exits or hangs instead. */
  private answer(): Promise<TelemetryResult | null> {
    this.worker.ref();
    return new Promise<TelemetryResult | null>((resolve) => {
      this.worker.once('message', (m: { k: string } & TelemetryResult) =>
        resolve(
          m.k === 'closed'
            ? { report: m.report, stats: m.stats, skippedBytes: this.skipped }
            : null,
        ),
      );
      this.worker.once('exit', () => resolve(null));
      // Only a guard against a stuck thread: the sink's own limits end a healthy close.
      setTimeout(() => resolve(null), 30_000).unref();
    });
  }

  private copy(direction: Direction, chunk: Buffer): void {
    if (this.failure) return;
    if (this.ring.write(direction, chunk, preciseNow(), this.lost)) {
      this.lost = NOTHING_LOST;
    } else {
      this.skipped += chunk.length;
      // Only whether the last lost chunk ended a line matters: it says where the next one starts.
      const how = chunk[chunk.length - 1] === 0x0a ? 'lines' : 'mid-line';
      this.lost = { ...this.lost, [direction]: how };
    }
  }

  private send(message: ToWorker): void {
    if (this.failure) return;
    try {
      this.worker.postMessage(message);
    } catch (error) {
      this.failure ??= `the telemetry thread failed: ${(error as Error).message}`;
    }
  }
}

/**
 * The stderr line for traffic relayed without being observed, or `null` when all of it was.
 * (Calls whose request or answer fell in the gap are not recorded.)
 */
export function unobservedLine(result: TelemetryResult): string | null {
  if (result.skippedBytes === 0) return null;
  const mb = (result.skippedBytes / (1024 * 1024)).toFixed(1);
  const calls = result.stats?.unobserved ?? 0;
  return (
    `mcpulse-devtools proxy: ${mb} MB of traffic went unobserved while the telemetry thread was ` +
    `too far behind (${calls} call${calls === 1 ? '' : 's'} in flight then not recorded); the ` +
    `MCP session itself was not affected\n`
  );
}
