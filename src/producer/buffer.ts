import { MAX_PER_REQUEST, type ResolvedOptions, type SendReport } from './options.js';
import { postBatch } from './transport.js';
import type { Payload } from './types.js';

/** Delivery counters, for callers that want to say what happened (the demo prints them). */
export interface DeliveryStats {
  /** Payloads a receiver answered 2xx for. */
  sent: number;
  /** Payloads lost: refused or failed batches, and the oldest ones pushed out of a full buffer. */
  dropped: number;
  /** Requests made. */
  batches: number;
  /** Requests that did not get a 2xx. */
  failedBatches: number;
  /** Payloads waiting to be sent. */
  buffered: number;
}

/**
 * Holds payloads and sends them in batches. `add` is synchronous and cannot throw, so a tool
 * call never waits on telemetry; sending happens on a timer or a promise nobody awaits.
 */
export class PayloadBuffer {
  private pending: Payload[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inFlight: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly counters = { sent: 0, dropped: 0, batches: 0, failedBatches: 0 };

  constructor(private readonly options: ResolvedOptions) {}

  /** Buffers one payload; flushes when the batch is full, else makes sure a timer is running. */
  add(payload: Payload): void {
    if (this.closed || !this.options.enabled) return;
    if (this.pending.length >= this.options.maxBuffered) {
      // Oldest first: the recent calls describe what the server is doing now.
      this.pending.shift();
      this.counters.dropped++;
    }
    this.pending.push(payload);
    try {
      this.options.onPayload?.(payload);
    } catch {
      // An observer's bug is not the tool call's problem.
    }
    if (this.pending.length >= this.options.flushAt) void this.flush();
    else this.startTimer();
  }

  /**
   * Sends everything buffered, in requests of at most 500 (the receiver's limit). Concurrent
   * callers queue behind each other, so no payload is ever sent twice. Never rejects.
   */
  flush(): Promise<void> {
    this.stopTimer();
    this.inFlight = this.inFlight.then(async () => {
      while (this.pending.length > 0) {
        // Anything added while this request is in flight belongs to the next one.
        const batch = this.pending.splice(0, MAX_PER_REQUEST);
        const report = await postBatch(batch, this.options);
        this.record(report);
      }
    });
    return this.inFlight;
  }

  /** Final flush; afterwards nothing more is accepted. */
  async close(): Promise<void> {
    if (this.closed) return this.inFlight;
    const done = this.flush();
    this.closed = true;
    return done;
  }

  stats(): DeliveryStats {
    return { ...this.counters, buffered: this.pending.length };
  }

  private record(report: SendReport): void {
    this.counters.batches++;
    if (report.ok) this.counters.sent += report.payloads;
    else {
      this.counters.failedBatches++;
      this.counters.dropped += report.payloads;
    }
    try {
      this.options.onSend?.(report);
    } catch {
      // As above: observers cannot break delivery.
    }
  }

  private startTimer(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.options.flushEveryMs);
    // Telemetry must never be what keeps the author's process alive.
    this.timer.unref?.();
  }

  private stopTimer(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
  }
}
