/**
 * The server's ingest: a lone request is stored before it is answered, as ever; concurrent
 * requests are acknowledged as a group once their bodies are in the spool (one small insert
 * each, one commit for all), and applied — validated again, stored, their derived facts
 * maintained — moments later, in slices that leave the event loop free for the next flush.
 *
 * Why: storing a call means five indexes and the metrics rollups (issue 4's query speed), ~15×
 * the work of a bare insert. An SDK's flush should not wait for that when others are queued
 * behind it. What keeps this honest:
 * - A 202 still means durable: the spool row commits before the answer, and applying deletes
 *   it in the same transaction that stores the batch (kill -9 loses nothing, stores nothing
 *   twice; the next start applies what is left).
 * - Readers see every acknowledged batch: API reads call {@link SpooledIngest.settle} first.
 * - The backlog is bounded: past `maxBacklogPayloads`, acknowledgements wait for applying, so
 *   a flood slows to the speed the store really sustains instead of filling the disk.
 * - A store that cannot apply (damaged pages, disk full) stops the acknowledgements: 503s,
 *   exactly like the synchronous path, until it can.
 */
import type { Store } from '../store/index.js';
import type { SpoolEntry, SpooledRequest } from '../store/spool.js';
import type { LiveBus } from './bus.js';
import {
  acceptedRecord,
  examine,
  storeFailure,
  type IngestAnswer,
  type IngestRequest,
  type Verdict,
} from './examine.js';
import { publishWritten } from './publish.js';
import type { RateLimiter } from './rate-limit.js';
import type { SpoolState } from '../shared/spool.js';

export interface SpooledIngestOptions {
  store: Store;
  bus: LiveBus;
  rateLimiter?: RateLimiter;
  /** Backlog, in items, past which acknowledgements wait for applying. Default 1,000,000 (about 230 MB of request bodies; ~100 s of applying here). */
  maxBacklogPayloads?: number;
}

/** The server's ingest handler plus the spool's controls. */
export interface SpooledIngest {
  handle(req: IngestRequest): Promise<IngestAnswer>;
  /**
   * Applies everything acknowledged so far (yielding to I/O between slices) or until
   * `timeoutMs` — by default 5 s for an ordinary backlog, 250 ms for a flood's; rejects with
   * the store's error when applying fails. Readers call this first.
   */
  settle(timeoutMs?: number): Promise<SpoolState>;
  state(): SpoolState;
  /** Stops the timers; whatever is still spooled is applied by the next start. */
  close(): void;
}

/** How long one slice of applying aims to hold the event loop. */
const SLICE_TARGET_MS = 12;
/** …and once no flush has arrived for QUIET_MS: nobody waits, so fewer, larger transactions. */
const QUIET_SLICE_MS = 40;
const QUIET_MS = 1000;
/** Ingest counts as busy for this long after a group; applying waits for a quiet moment… */
const BUSY_MS = 10;
/** …but never longer than this, so the dashboard keeps moving during a flood. */
const STARVE_MS = 250;
/** After a failed apply, try again this often (requests and reads also retry). */
const RETRY_MS = 1000;
/** The live `spool` event is sent at most this often while the backlog changes. */
const ANNOUNCE_MS = 250;
/**
 * While more than this many items wait, applied requests are announced by their `batch` event
 * alone: one event per call would be ~15k events/s, more than a dashboard (or a terminal)
 * can read, and the stream cuts readers that fall behind. Near live again, every row is sent.
 */
const ROW_EVENTS_BELOW = 2_000;
/**
 * How long a read waits for the backlog to be applied: long enough for any ordinary backlog,
 * but a flood's is answered at once with what is stored (the dashboard shows the backlog).
 */
const SETTLE_SMALL_MS = 5000;
const SETTLE_LARGE_MS = 250;
const SMALL_BACKLOG = 20_000;

type Accepted = Extract<Verdict, { kind: 'accepted' }>;

interface Waiting {
  verdict: Accepted;
  resolve(answer: IngestAnswer): void;
}

/** What the spool keeps of an accepted request: its body as received, who sent it, when. */
export function spoolEntryOf(v: Accepted): SpoolEntry {
  return {
    receivedMs: v.record.receivedMs,
    keySha256: v.key.sha256,
    keyPrefix: v.key.prefix,
    userAgent: v.record.userAgent,
    payloads: v.items,
    body: v.body,
  };
}

/** Builds the spooled ingest for one store (the spool left by a previous run is applied first). */
export function createSpooledIngest(options: SpooledIngestOptions): SpooledIngest {
  const { store, bus, rateLimiter } = options;
  const maxBacklog = options.maxBacklogPayloads ?? 1_000_000;
  const backlog = store.spool.backlog();
  let group: Waiting[] = [];
  let failing: Error | null = null;
  let spooledRequests = 0;
  let lastGroupMs = -Infinity;
  let lastSliceMs = -Infinity;
  let readers = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  // The measured cost of applying one item (moving average), which sizes the slices.
  let msPerItem = 0.05;

  const state = (): SpoolState => ({
    pendingRequests: backlog.requests,
    pendingPayloads: backlog.payloads,
    spooledRequests,
    failing: failing?.message ?? null,
  });

  // The dashboard hears about the backlog while there is one, and once more when it is gone
  // or applying fails or recovers — at most every ANNOUNCE_MS, never for a lone stored request.
  let lastSent: SpoolState | null = null;
  let announceTimer: NodeJS.Timeout | undefined;
  let dirty = false;
  const quiet = (s: SpoolState | null): boolean =>
    s === null || (s.pendingRequests === 0 && s.failing === null);
  function announce(): void {
    if (closed) return;
    if (announceTimer) {
      dirty = true;
      return;
    }
    const now = state();
    if (quiet(now) && quiet(lastSent)) return;
    if (
      lastSent &&
      now.failing === lastSent.failing &&
      now.pendingRequests === lastSent.pendingRequests &&
      now.pendingPayloads === lastSent.pendingPayloads
    )
      return;
    bus.publish({ type: 'spool', data: now });
    lastSent = now;
    dirty = false;
    announceTimer = setTimeout(() => {
      announceTimer = undefined;
      if (dirty) announce();
    }, ANNOUNCE_MS);
    announceTimer.unref();
  }

  /** Rebuilds a spooled request's batch; the body parsed when it was acknowledged. */
  function toRecord(r: SpooledRequest) {
    const { batch } = JSON.parse(r.body.toString('utf8')) as { batch: unknown[] };
    return acceptedRecord(
      { receivedMs: r.receivedMs, userAgent: r.userAgent ?? undefined },
      { sha256: r.keySha256, prefix: r.keyPrefix },
      r.body.length,
      batch,
    );
  }

  /** Applies one slice; throws (and remembers) the store's error. */
  function applySlice(): void {
    const started = performance.now();
    let applied;
    try {
      const quiet = started - lastGroupMs > QUIET_MS;
      const targetMs = quiet ? QUIET_SLICE_MS : SLICE_TARGET_MS;
      applied = store.spool.apply(Math.max(1, Math.round(targetMs / msPerItem)), toRecord);
    } catch (error) {
      failing = error instanceof Error ? error : new Error(String(error));
      announce();
      throw failing;
    } finally {
      lastSliceMs = performance.now();
    }
    failing = null;
    if (applied.length === 0) {
      // Someone emptied the table (clear-all): count again.
      Object.assign(backlog, store.spool.backlog());
      return;
    }
    let items = 0;
    for (const a of applied) {
      items += a.request.payloads;
      backlog.requests--;
      backlog.payloads -= a.request.payloads;
      publishWritten(bus, a.record, a.written, backlog.payloads < ROW_EVENTS_BELOW);
    }
    announce();
    if (items > 0) {
      const measured = (performance.now() - started) / items;
      msPerItem = Math.min(10, Math.max(0.001, (msPerItem + measured) / 2));
    }
  }

  function schedule(delayMs: number): void {
    if (timer || closed || backlog.requests === 0) return;
    timer = setTimeout(tick, delayMs);
    timer.unref();
  }

  function tick(): void {
    timer = undefined;
    if (backlog.requests === 0) return;
    const now = performance.now();
    // While flushes keep arriving, acknowledging them comes first; applying takes the quiet
    // moments, and at least one slice every STARVE_MS.
    if (readers === 0 && now - lastGroupMs < BUSY_MS && now - lastSliceMs < STARVE_MS) {
      schedule(BUSY_MS);
      return;
    }
    try {
      applySlice();
    } catch {
      schedule(RETRY_MS);
      return;
    }
    schedule(0);
  }

  function commitGroup(): void {
    const waiting = group;
    group = [];
    lastGroupMs = performance.now();
    try {
      if (waiting.length === 1 && backlog.requests === 0) {
        // Nobody else is waiting: store it now, as a synchronous server would.
        const { record } = waiting[0]!.verdict;
        publishWritten(bus, record, store.writeBatch(record));
      } else {
        // A store that cannot apply must not keep acknowledging.
        if (failing) applySlice();
        // A full spool: these acknowledgements wait until it is back under its bound.
        while (backlog.payloads >= maxBacklog) applySlice();
        store.spool.add(waiting.map((w) => spoolEntryOf(w.verdict)));
        for (const { verdict } of waiting) {
          backlog.requests++;
          backlog.payloads += verdict.items;
        }
        spooledRequests += waiting.length;
        schedule(BUSY_MS);
        announce();
      }
    } catch (error) {
      for (const w of waiting) w.resolve(storeFailure(error));
      return;
    }
    for (const w of waiting) w.resolve(w.verdict.answer);
  }

  schedule(0);

  return {
    handle(req) {
      const verdict = examine(req, rateLimiter);
      if (verdict.kind === 'refused') {
        // Refusals are tiny and rare: recorded straight away for the ingest log.
        try {
          publishWritten(bus, verdict.record, store.writeBatch(verdict.record));
        } catch (error) {
          return Promise.resolve(storeFailure(error));
        }
        return Promise.resolve(verdict.answer);
      }
      return new Promise((resolve) => {
        // Requests that arrive in the same turn of the event loop commit together.
        if (group.push({ verdict, resolve }) === 1) setImmediate(commitGroup);
      });
    },

    async settle(timeoutMs) {
      if (backlog.requests === 0) return state();
      timeoutMs ??= backlog.payloads <= SMALL_BACKLOG ? SETTLE_SMALL_MS : SETTLE_LARGE_MS;
      const deadline = performance.now() + timeoutMs;
      readers++;
      try {
        while (backlog.requests > 0 && performance.now() < deadline) {
          applySlice();
          if (backlog.requests > 0) await new Promise((resolve) => setImmediate(resolve));
        }
      } finally {
        readers--;
      }
      return state();
    },

    state,

    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (announceTimer) clearTimeout(announceTimer);
      timer = announceTimer = undefined;
    },
  };
}
