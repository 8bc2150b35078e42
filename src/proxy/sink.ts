/**
 * Where the proxy's payloads go: held until the MCP traffic pauses, then handed to the
 * producer's own buffer (requests of at most 500, no retries). The proxy sits on the path of a
 * live session, and the dashboard storing calls shares the machine with it, so telemetry is sent
 * in the gaps: when no traffic has been relayed for {@link QUIET_MS}, or when the oldest held
 * payload is {@link MAX_AGE_MS} old (a session that never pauses still shows up every few
 * seconds), or when {@link HIGH_WATER} are held. Payloads are also held while the proxy is still
 * finding or starting the dashboard — the relay starts at once, telemetry catches up.
 *
 * Delivery can only ever lose telemetry, never touch the MCP session: nothing here is awaited
 * on the relay's path, and every failure is counted and told once, in one line at exit.
 */
import { PayloadBuffer } from '../producer/buffer.js';
import { resolveOptions, type SendReport } from '../producer/options.js';
import { preciseNow, type ProxyPayload } from './observer.js';

/** Send once no traffic has been relayed for this long. */
export const QUIET_MS = 50;
/** …or once the oldest held payload is this old, pause or not (the "every few seconds"). */
export const MAX_AGE_MS = 5000;
/** …or once this many are held (a flood that never pauses: bounded memory, bounded lag). */
export const HIGH_WATER = 25_000;

/**
 * How many may be held at all (then the oldest go): far past an SDK's 1000, because one proxy
 * can see a burst of calls from a client faster than a dashboard on the same machine stores
 * them, and while the dashboard is still being found or started (tens of MB at most).
 */
const MAX_HELD = 50_000;

/** Options for {@link TelemetrySink}; the defaults are the constants above. */
export interface SinkOptions {
  key: string;
  quietMs?: number;
  maxAgeMs?: number;
  highWater?: number;
  /** Abort a request after this long. Default 5000 ms. */
  timeoutMs?: number;
  /**
   * When traffic was last relayed (preciseNow), asked at the moment of deciding — for a caller
   * that can see it directly (the telemetry thread looks at the ring), since `traffic()` calls
   * can be late on a thread that only runs on idle CPU.
   */
  lastTraffic?: () => number;
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

/** Holds payloads and sends them to the dashboard, once it is known, when the traffic pauses. */
export class TelemetrySink {
  private held: ProxyPayload[] = [];
  /** When the oldest held payload was added (preciseNow). */
  private heldSince = 0;
  /** When the relay last saw traffic (preciseNow); 0 if it never said. */
  private trafficAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
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
  /** Resolves `hurried`; null once called. */
  private hurry: (() => void) | null = null;
  private readonly hurried = new Promise<void>((resolve) => (this.hurry = resolve));
  /** Aborts requests still in flight when the exit budget runs out, so nothing holds the exit. */
  private readonly abandon = new AbortController();
  private readonly quietMs: number;
  private readonly maxAgeMs: number;
  private readonly highWater: number;

  constructor(private readonly options: SinkOptions) {
    this.quietMs = options.quietMs ?? QUIET_MS;
    this.maxAgeMs = options.maxAgeMs ?? MAX_AGE_MS;
    this.highWater = options.highWater ?? HIGH_WATER;
  }

  /** Takes one payload; never throws, never waits. */
  add(payload: ProxyPayload): void {
    if (payload.type === 'call') this.added.calls++;
    else this.added.startups++;
    if (this.unavailable !== null) return;
    if (this.held.length === 0) this.heldSince = preciseNow();
    else if (this.held.length >= MAX_HELD) this.held.shift();
    this.held.push(payload);
    if (this.held.length >= this.highWater) this.release();
    else this.arm();
  }

  /** The relay saw traffic at `at` (preciseNow): sending waits for a pause after it. */
  traffic(at = preciseNow()): void {
    if (at > this.trafficAt) this.trafficAt = at;
  }

  /** The dashboard answers at `endpoint`: send what was held and everything after. */
  connect(endpoint: string): void {
    if (this.buffer || this.unavailable !== null) return;
    this.endpoint = endpoint;
    this.buffer = new PayloadBuffer(
      resolveOptions({
        endpoint,
        key: this.options.key,
        // The sink decides when to send (release below); the buffer only cuts requests of 500.
        flushAt: 500,
        flushEveryMs: this.maxAgeMs,
        maxBuffered: MAX_HELD,
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
    this.resolved();
    if (this.held.length > 0) this.arm();
  }

  /** There is no dashboard to send to: everything is dropped, for this reason. */
  fail(reason: string): void {
    if (this.buffer || this.unavailable !== null) return;
    this.unavailable = reason;
    this.reason ??= reason;
    this.held = [];
    this.disarm();
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
    await Promise.race([this.settled, wait(idleMs), this.hurried]);
    if (this.buffer) {
      this.release();
      let finished = false;
      const done = this.buffer.close().then(() => void (finished = true));
      this.progressAt = Date.now();
      while (!finished) {
        const until = Math.min(this.progressAt + idleMs, cap);
        if (Date.now() >= until || this.hurry === null) break;
        await Promise.race([done, wait(Math.min(until - Date.now(), 200)), this.hurried]);
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

  /** When traffic was last relayed, as best known right now. */
  private lastTrafficAt(): number {
    const seen = this.options.lastTraffic?.() ?? 0;
    if (seen > this.trafficAt) this.trafficAt = seen;
    return this.trafficAt;
  }

  /** Makes sure a timer will look again when the pause or the age may be reached. */
  private arm(): void {
    if (this.timer || !this.buffer) return;
    const now = preciseNow();
    const quietIn = this.lastTrafficAt() + this.quietMs - now;
    const ageIn = this.heldSince + this.maxAgeMs - now;
    const due = Math.min(Math.max(quietIn, 0), Math.max(ageIn, 0));
    this.timer = setTimeout(() => {
      this.timer = null;
      const at = preciseNow();
      if (at - this.lastTrafficAt() >= this.quietMs || at - this.heldSince >= this.maxAgeMs)
        this.release();
      else this.arm();
    }, Math.ceil(due));
    // Telemetry must never be what keeps the proxy alive; close() sends what is left.
    this.timer.unref?.();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Hands everything held to the buffer, which sends it now in requests of at most 500. */
  private release(): void {
    if (!this.buffer || this.held.length === 0) return;
    this.disarm();
    const held = this.held;
    this.held = [];
    for (const payload of held) this.buffer.add(payload);
    void this.buffer.flush();
  }

  /**
   * Ends a {@link close} in progress now (what was not sent is reported dropped): the client is
   * stopping the proxy with a signal and will not wait for the rest.
   */
  stopNow(reason: string): void {
    if (this.hurry === null) return;
    this.reason ??= reason;
    this.hurry();
    this.hurry = null;
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
