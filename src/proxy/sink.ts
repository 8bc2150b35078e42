/**
 * Where the proxy's payloads go: the producer's own buffer (batches of 30, a flush every few
 * seconds, at most 1000 held, no retries), behind a queue that holds payloads while the proxy
 * is still finding or starting the dashboard — the relay starts at once, telemetry catches up.
 *
 * Delivery can only ever lose telemetry, never touch the MCP session: nothing here is awaited
 * on the relay's path, and every failure is counted and told once, in one line at exit.
 */
import { PayloadBuffer } from '../producer/buffer.js';
import { resolveOptions, type SendReport } from '../producer/options.js';
import type { ProxyPayload } from './observer.js';

/** How long the queue may grow before the endpoint is known. */
const MAX_QUEUED = 50_000;

/** Options for {@link TelemetrySink}. */
export interface SinkOptions {
  key: string;
  /** Flush at least this often while something is buffered. Default 2000 ms. */
  flushEveryMs?: number;
  /** Abort a request after this long. Default 5000 ms. */
  timeoutMs?: number;
  /** Send when this many are waiting. Default 500 (the receiver's most per request). */
  flushAt?: number;
  /**
   * Hold at most this many while the dashboard catches up (then the oldest go). Default 50,000
   * (tens of MB at most): far past an SDK's 1000, because one proxy can see a burst of calls
   * from a client faster than a dashboard on the same machine stores them.
   */
  maxBuffered?: number;
}

/** What happened to the payloads, for the exit line. */
export interface SinkReport {
  added: { calls: number; startups: number };
  sent: { calls: number; startups: number };
  dropped: { calls: number; startups: number };
  /** Why the first payload was lost, when one was. */
  reason: string | null;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

/** Buffers payloads and sends them to the dashboard once it is known. */
export class TelemetrySink {
  private queue: ProxyPayload[] = [];
  private buffer: PayloadBuffer | null = null;
  private endpoint: string | null = null;
  private unavailable: string | null = null;
  private reason: string | null = null;
  private resolved!: () => void;
  private readonly settled = new Promise<void>((resolve) => (this.resolved = resolve));
  private readonly added = { calls: 0, startups: 0 };
  private readonly sent = { calls: 0, startups: 0 };
  /** When the dashboard last accepted a batch (while closing). */
  private progressAt = 0;
  /** Aborts requests still in flight when the exit budget runs out, so nothing holds the exit. */
  private readonly abandon = new AbortController();

  constructor(private readonly options: SinkOptions) {}

  /** Takes one payload; never throws, never waits. */
  add(payload: ProxyPayload): void {
    if (payload.type === 'call') this.added.calls++;
    else this.added.startups++;
    if (this.buffer) this.buffer.add(payload);
    else if (this.unavailable === null) {
      if (this.queue.length >= MAX_QUEUED) this.queue.shift();
      this.queue.push(payload);
    }
  }

  /** The dashboard answers at `endpoint`: send what was queued and everything after. */
  connect(endpoint: string): void {
    if (this.buffer || this.unavailable !== null) return;
    this.endpoint = endpoint;
    this.buffer = new PayloadBuffer(
      resolveOptions({
        endpoint,
        key: this.options.key,
        flushEveryMs: this.options.flushEveryMs ?? 2000,
        // Not an SDK's 30: a proxy in front of a busy server would otherwise spend more of its
        // event loop (the one relaying the traffic) on HTTP requests than on relaying.
        flushAt: this.options.flushAt ?? 500,
        maxBuffered: this.options.maxBuffered ?? 50_000,
        timeoutMs: this.options.timeoutMs ?? 5000,
        userAgent: 'mcpulse-devtools-proxy/1',
        fetch: (url, init) =>
          fetch(url, {
            ...init,
            signal: init?.signal
              ? AbortSignal.any([init.signal, this.abandon.signal])
              : this.abandon.signal,
          }),
        onSend: (report) => this.onSend(report),
      }),
    );
    for (const payload of this.queue) this.buffer.add(payload);
    this.queue = [];
    this.resolved();
  }

  /** There is no dashboard to send to: everything is dropped, for this reason. */
  fail(reason: string): void {
    if (this.buffer || this.unavailable !== null) return;
    this.unavailable = reason;
    this.reason ??= reason;
    this.queue = [];
    this.resolved();
  }

  /**
   * Sends what is left and reports. Waits while the dashboard keeps accepting batches, giving up
   * after `idleMs` without progress (a dashboard that is down or hangs must not hold the
   * client's exit for long) or `capMs` in all (a backlog after a burst of calls gets sent).
   * Never rejects.
   */
  async close(idleMs = 2000, capMs = 15_000): Promise<SinkReport> {
    const cap = Date.now() + capMs;
    await Promise.race([this.settled, wait(idleMs)]);
    if (this.buffer) {
      let finished = false;
      const done = this.buffer.close().then(() => void (finished = true));
      this.progressAt = Date.now();
      while (!finished) {
        const until = Math.min(this.progressAt + idleMs, cap);
        if (Date.now() >= until) break;
        await Promise.race([done, wait(Math.min(until - Date.now(), 200))]);
      }
      this.abandon.abort();
    } else if (this.unavailable === null) {
      this.reason ??= 'the dashboard could not be found or started in time';
    }
    const dropped = {
      calls: this.added.calls - this.sent.calls,
      startups: this.added.startups - this.sent.startups,
    };
    if ((dropped.calls > 0 || dropped.startups > 0) && this.reason === null)
      this.reason = `the dashboard at ${this.endpoint ?? '?'} did not take them in time`;
    return { added: { ...this.added }, sent: { ...this.sent }, dropped, reason: this.reason };
  }

  private onSend(report: SendReport): void {
    if (report.ok) {
      this.progressAt = Date.now();
      this.sent.calls += report.calls;
      this.sent.startups += report.payloads - report.calls;
      return;
    }
    this.reason ??=
      report.status === 'error'
        ? `no answer from the dashboard at ${this.endpoint}`
        : `the dashboard at ${this.endpoint} answered HTTP ${report.status}`;
  }
}

/** The one stderr line about lost telemetry, or `null` when nothing was lost. */
export function dropLine(report: SinkReport): string | null {
  const { calls, startups } = report.dropped;
  if (calls === 0 && startups === 0) return null;
  const what = [
    `${calls} call${calls === 1 ? '' : 's'}`,
    `${startups} startup${startups === 1 ? '' : 's'}`,
  ].join(' and ');
  return `mcpulse-devtools proxy: dropped the telemetry of ${what} (${report.reason ?? 'unknown reason'}); the MCP session itself was not affected\n`;
}
