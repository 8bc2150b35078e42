/**
 * Where the proxy's payloads and content go: held until the MCP traffic pauses, then posted —
 * telemetry to `/v1/ingest` in batches of at most 500 (exactly what an SDK sends), content to
 * PROXY_CONTENT_PATH. The proxy sits on the path of a live session, and the dashboard storing
 * calls shares the machine with it, so sending waits for a gap: when no traffic has been relayed
 * for {@link QUIET_MS}, or when the oldest held payload is {@link MAX_AGE_MS} old, or when
 * {@link HIGH_WATER} are held. Payloads are also held while the dashboard is still being found
 * or started, and while the project key is not known yet (it comes from the server's answer to
 * `initialize`).
 *
 * Nothing is lost at exit: what was not accepted by then (still held, queued, in flight, or
 * refused while the dashboard was away) is handed off to a spool file and a detached poster
 * (spool.ts). The only losses are what the hand-off itself could not write, and payloads pushed
 * out of a full hold, and the exit line counts exactly those.
 */
import type { CallPayload } from '../producer/types.js';
import type { ProxyMessage, ProxySessionInfo, UnansweredRequest } from '../shared/proxy-content.js';
import { preciseNow, type ContentTarget, type ProxyPayload } from './observer.js';
import {
  contentPosts,
  type HeldContent,
  type Post,
  type SinkReport,
  type Tally,
} from './sink-posts.js';
import { adoptLeftovers, handOff, isFinalRefusal } from './spool.js';
import { TOKEN_ENV, TOKEN_HEADER } from '../shared/owner-token.js';
import { PROXY_CONTENT_PATH } from '../shared/proxy-content.js';

export { dropLine, type SinkReport, type Tally } from './sink-posts.js';

/** Send once no traffic has been relayed for this long. */
export const QUIET_MS = 50;
/**
 * …or once the traffic behind the oldest held payload or message was relayed this long ago,
 * pause or not (the "every few seconds"). Counted from the relay, not from when the telemetry
 * thread observed it: the thread observes about this often too (telemetry-worker.ts), so in a
 * session that never pauses, observing and sending are one burst every few seconds, not
 * several (each burst competes with the session for the CPU; issue 18's 1,000 calls/s p99).
 */
export const MAX_AGE_MS = 5000;
/** …or once this many are held (a flood that never pauses: bounded memory, bounded lag). */
export const HIGH_WATER = 25_000;
/**
 * At exit, how long the request in flight may still take before it is handed off unanswered
 * (the TypeScript SDK's client sends SIGKILL 2 s after its SIGTERM).
 */
const IN_FLIGHT_GRACE_MS = 1000;
/** Payloads per ingest request: the receiver's limit (wire-format §1). */
const PER_INGEST = 500;
/** How many payloads, and messages, may be held at all (then the oldest go, counted). */
const MAX_HELD = 50_000;

/** Options for {@link TelemetrySink}; the defaults are the constants above. */
export interface SinkOptions {
  /** The project key, when known from the start (`--key`); else {@link TelemetrySink.setKey}. */
  key?: string;
  /** The key used at exit if none was set by then (the server never answered `initialize`). */
  fallbackKey?: string;
  /** Where to hand off to if no dashboard was ever found (the `--url` asked for). */
  url?: string;
  quietMs?: number;
  maxAgeMs?: number;
  highWater?: number;
  /** Abort a request after this long. Default 5000 ms. */
  timeoutMs?: number;
  /** When traffic was last relayed (preciseNow), asked at the moment of deciding. */
  lastTraffic?: () => number;
  /** The environment the poster is started with (its spool folder). */
  env?: NodeJS.ProcessEnv;
  /**
   * The dashboard's owner token, which `/v1/local/proxy` asks for (`x-devtools-token`; its
   * `authorization` is the project key, as on ingest). {@link TelemetrySink.connect} may set it.
   */
  token?: string;
}

const none = (): Tally => ({ calls: 0, startups: 0, messages: 0 });
const addTo = (into: Tally, t: Tally) => {
  into.calls += t.calls;
  into.startups += t.startups;
  into.messages += t.messages;
};
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

/** Holds payloads and content and sends them once the dashboard and the key are known. */
export class TelemetrySink implements ContentTarget {
  private held: ProxyPayload[] = [];
  private heldContent = new Map<string, HeldContent>();
  private heldMessages = 0;
  /** When the traffic behind the oldest held payload or message was relayed (preciseNow). */
  private heldSince = 0;
  private trafficAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private endpoint: string | null = null;
  private key: string | null;
  private token: string | undefined;
  private reason: string | null = null;
  private resolved!: () => void;
  private readonly settled = new Promise<void>((resolve) => (this.resolved = resolve));
  private readonly queue: Post[] = [];
  /** Posts the dashboard did not accept: kept for the hand-off at exit. */
  private readonly refused: Post[] = [];
  private inFlight: Post | null = null;
  /** Settles when the request in flight has its answer. */
  private inFlightDone: Promise<unknown> = Promise.resolve();
  /** Closing: no new request is started. */
  private stopping = false;
  private pumping = false;
  private readonly counts = { added: none(), sent: none(), handedOff: none(), dropped: none() };
  private progressAt = 0;
  private hurry: (() => void) | null = null;
  private readonly hurried = new Promise<void>((resolve) => (this.hurry = resolve));
  private readonly abandon = new AbortController();
  private readonly quietMs: number;
  private readonly maxAgeMs: number;
  private readonly highWater: number;

  constructor(private readonly options: SinkOptions) {
    this.key = options.key ?? null;
    this.token = options.token;
    this.quietMs = options.quietMs ?? QUIET_MS;
    this.maxAgeMs = options.maxAgeMs ?? MAX_AGE_MS;
    this.highWater = options.highWater ?? HIGH_WATER;
  }

  /**
   * Takes one payload, from traffic relayed at `at` ({@link preciseNow}; by default now);
   * never throws, never waits.
   */
  add(payload: ProxyPayload, at = preciseNow()): void {
    const kind = payload.type === 'call' ? 'calls' : 'startups';
    this.counts.added[kind]++;
    this.hold(at);
    if (this.held.length >= MAX_HELD) {
      const lost = this.held.shift()!;
      this.counts.dropped[lost.type === 'call' ? 'calls' : 'startups']++;
      this.reason ??= 'more were waiting for the dashboard than the proxy holds';
    }
    this.held.push(payload);
    this.due();
  }

  /** One captured message of session `sessionId`. */
  message(sessionId: string, message: ProxyMessage): void {
    this.counts.added.messages++;
    this.hold(message.at_ms);
    if (this.heldMessages >= MAX_HELD) {
      this.counts.dropped.messages++;
      this.reason ??= 'more were waiting for the dashboard than the proxy holds';
      return;
    }
    this.heldMessages++;
    this.contentOf(sessionId).messages.push(message);
    this.due();
  }

  /** What the client and the server said at `initialize`. */
  session(sessionId: string, info: ProxySessionInfo): void {
    this.contentOf(sessionId).session = info;
    this.due();
  }

  /** Requests left open by a clean end of the session. */
  unanswered(sessionId: string, requests: UnansweredRequest[]): void {
    const held = this.contentOf(sessionId);
    held.unanswered = [...(held.unanswered ?? []), ...requests];
    this.due();
  }

  /** The relay saw traffic at `at` (preciseNow): sending waits for a pause after it. */
  traffic(at = preciseNow()): void {
    if (at > this.trafficAt) this.trafficAt = at;
  }

  /** The project key, once known (the server's name); what was held goes out with it. */
  setKey(key: string): void {
    if (this.key !== null) return;
    this.key = key;
    this.ready();
  }

  /**
   * The dashboard answers at `endpoint` (and takes `token`, if given): send what was held and
   * everything after.
   */
  connect(endpoint: string, token?: string): void {
    if (this.endpoint !== null) return;
    this.endpoint = endpoint;
    if (token !== undefined) this.token = token;
    this.ready();
  }

  /** No dashboard was found or started: everything is kept for the hand-off at exit. */
  fail(reason: string): void {
    if (this.endpoint !== null) return;
    this.reason ??= reason;
    this.resolved();
  }

  /**
   * Sends what is left, then hands off what the dashboard did not take. Waits while the
   * dashboard keeps accepting, giving up after `idleMs` without progress (a dashboard that is
   * down or hangs must not hold the client's exit for long) or `capMs` in all. Never rejects.
   */
  async close(idleMs = 2000, capMs = 15_000): Promise<SinkReport> {
    const cap = Date.now() + capMs;
    await Promise.race([this.settled, wait(idleMs), this.hurried]);
    if (this.key === null && this.options.fallbackKey) this.key = this.options.fallbackKey;
    if (this.endpoint !== null && this.key !== null) {
      this.release();
      this.progressAt = Date.now();
      while (this.queue.length > 0 || this.inFlight) {
        const until = Math.min(this.progressAt + idleMs, cap);
        if (Date.now() >= until || this.hurry === null) break;
        await Promise.race([wait(Math.min(until - Date.now(), 50)), this.hurried]);
      }
      // No new request from here on. The one in flight gets a last moment to be answered: the
      // dashboard may have stored it already, and handing it off unanswered would store it
      // twice (a flood's last batch of 500 did, before this wait).
      this.stopping = true;
      if (this.inFlight) await Promise.race([this.inFlightDone, wait(IN_FLIGHT_GRACE_MS)]);
    } else if (this.endpoint === null) {
      this.reason ??= 'the dashboard could not be found or started in time';
    }
    this.handOffRest();
    return {
      added: { ...this.counts.added },
      sent: { ...this.counts.sent },
      handedOff: { ...this.counts.handedOff },
      dropped: { ...this.counts.dropped },
      reason: this.reason,
      spool: this.spoolFile,
    };
  }

  /** Ends a {@link close} in progress now: the client is stopping the proxy with a signal. */
  stopNow(reason: string): void {
    if (this.hurry === null) return;
    this.reason ??= reason;
    this.hurry();
    this.hurry = null;
  }

  private spoolFile: string | null = null;

  /** Everything not accepted goes to the spool; counted as handed off, or dropped if it fails. */
  private handOffRest(): void {
    // Stop the loop first so nothing more is queued or counted behind the hand-off's back.
    this.pumping = true;
    this.abandon.abort();
    const rest = [...(this.inFlight ? [this.inFlight] : []), ...this.refused, ...this.queue];
    this.inFlight = null;
    this.queue.length = 0;
    this.refused.length = 0;
    rest.push(...this.drainHeld());
    if (rest.length === 0) return;
    const total = none();
    for (const p of rest) addTo(total, p);
    const endpoint = this.endpoint ?? this.options.url;
    try {
      if (!endpoint || this.key === null) throw new Error('no dashboard URL or key to send to');
      this.spoolFile = handOff(
        endpoint,
        this.key,
        rest.map(({ path, body }) => ({ path, body })),
        this.posterEnv(),
      );
      addTo(this.counts.handedOff, total);
    } catch (error) {
      addTo(this.counts.dropped, total);
      this.reason = `the hand-off failed: ${(error as Error).message}`;
    }
  }

  /** Something relayed at `at` is about to be held: the age counts from the oldest. */
  private hold(at: number): void {
    if (this.held.length === 0 && this.heldMessages === 0)
      this.heldSince = Math.min(at, preciseNow());
  }

  private contentOf(sessionId: string): HeldContent {
    let held = this.heldContent.get(sessionId);
    if (!held) this.heldContent.set(sessionId, (held = { messages: [] }));
    return held;
  }

  private ready(): void {
    if (this.endpoint === null || this.key === null) return;
    this.resolved();
    this.due();
    // Hand-offs an earlier proxy's poster gave up on (the dashboard was away too long): now
    // that this key's dashboard answers, post them.
    adoptLeftovers(this.endpoint, this.key, this.posterEnv());
  }

  /** The poster's environment: ours, with the owner token its content posts need. */
  private posterEnv(): NodeJS.ProcessEnv {
    const env = this.options.env ?? process.env;
    return this.token === undefined ? env : { ...env, [TOKEN_ENV]: this.token };
  }

  /** After something was held: send now (high water), or make sure a timer looks again. */
  private due(): void {
    if (this.held.length + this.heldMessages >= this.highWater) this.release();
    else this.arm();
  }

  private lastTrafficAt(): number {
    const seen = this.options.lastTraffic?.() ?? 0;
    if (seen > this.trafficAt) this.trafficAt = seen;
    return this.trafficAt;
  }

  private arm(): void {
    if (this.timer || this.endpoint === null || this.key === null) return;
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

  /** Turns everything held into posts: telemetry first (content refers to its calls). */
  private drainHeld(): Post[] {
    const posts: Post[] = [];
    const held = this.held;
    this.held = [];
    for (let i = 0; i < held.length; i += PER_INGEST) {
      const batch = held.slice(i, i + PER_INGEST);
      const calls = batch.filter((p): p is CallPayload => p.type === 'call').length;
      const body = JSON.stringify({ batch });
      posts.push({ path: '/v1/ingest', body, calls, startups: batch.length - calls, messages: 0 });
    }
    for (const [sessionId, content] of this.heldContent)
      posts.push(...contentPosts(sessionId, content));
    this.heldContent.clear();
    this.heldMessages = 0;
    return posts;
  }

  /** Queues everything held and makes sure the queue is being sent. */
  private release(): void {
    if (this.endpoint === null || this.key === null) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue.push(...this.drainHeld());
    void this.pump();
  }

  /** Sends the queue one request at a time (the dashboard stores them in order). */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (
        !this.stopping &&
        this.queue.length > 0 &&
        this.endpoint !== null &&
        this.key !== null
      ) {
        const post = this.queue.shift()!;
        this.inFlight = post;
        const sending = this.send(post);
        this.inFlightDone = sending;
        const answer = await sending;
        if (this.inFlight !== post) return; // Handed off while in flight.
        this.inFlight = null;
        if (answer === 'ok') {
          addTo(this.counts.sent, post);
          this.progressAt = Date.now();
        } else if (answer === 'never') addTo(this.counts.dropped, post);
        else this.refused.push(post);
      }
    } finally {
      if (!this.abandon.signal.aborted) this.pumping = false;
    }
  }

  /**
   * One request: `ok`, `later` (no answer, or an answer that may change: 408, 429, 5xx — kept
   * for the hand-off), or `never` (refused as it is, e.g. 400/401/404: retrying cannot help).
   */
  private async send(post: Post): Promise<'ok' | 'later' | 'never'> {
    try {
      const res = await fetch(`${this.endpoint}${post.path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${this.key}`,
          'user-agent': 'mcpulse-devtools-proxy/1',
          // Content is the owner's data: its route wants the token (never sent to ingest).
          ...(post.path === PROXY_CONTENT_PATH && this.token !== undefined
            ? { [TOKEN_HEADER]: this.token }
            : {}),
        },
        body: post.body,
        signal: AbortSignal.any([
          AbortSignal.timeout(this.options.timeoutMs ?? 5000),
          this.abandon.signal,
        ]),
      });
      await res.body?.cancel().catch(() => {});
      if (res.ok) return 'ok';
      this.reason ??= `the dashboard at ${this.endpoint} answered HTTP ${res.status}`;
      return isFinalRefusal(res.status) ? 'never' : 'later';
    } catch {
      this.reason ??= `no answer from the dashboard at ${this.endpoint}`;
      return 'later';
    }
  }
}
