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
 *
 * Three parts: the group commit (here: acknowledge a turn's requests together), the applier
 * (./spool-applier.ts: take them out of the spool in slices) and the announcer
 * (./spool-announcer.ts: tell the dashboard how the backlog goes).
 */
import type { SpoolState } from '../shared/spool.js';
import type { Store } from '../store/index.js';
import type { SpoolEntry } from '../store/spool.js';
import type { LiveBus } from './bus.js';
import { misdirectedVerdict, type MisdirectedRequest } from './misdirected.js';
import { createRefusalLog, refusalSignature } from './refusal-log.js';
import {
  examine,
  storeFailure,
  type IngestAnswer,
  type IngestRequest,
  type Verdict,
} from './examine.js';
import { createFileLossCheck, FILE_LOST_FIX } from './file-loss.js';
import { publishWritten } from './publish.js';
import type { RateLimiter } from './rate-limit.js';
import { createSpoolAnnouncer } from './spool-announcer.js';
import {
  BUSY_MS,
  createSpoolApplier,
  FULL_SPOOL_SLICE_MS,
  type BetweenSlices,
} from './spool-applier.js';
import { createValidatedRecords, type ValidatedRecords } from './validated-records.js';

export interface SpooledIngestOptions {
  store: Store;
  bus: LiveBus;
  rateLimiter?: RateLimiter;
  /** Backlog, in items, past which acknowledgements wait for applying. Default 1,000,000 (about 230 MB of request bodies; ~100 s of applying here). */
  maxBacklogPayloads?: number;
  /** Told once, in one line, when the database file is lost (./file-loss.ts). */
  warn?: (line: string) => void;
  /**
   * The cache of records validated at acknowledgement (./validated-records.ts); given by
   * bench/ingest-parts.ts, which spools bodies itself and times the steps apart.
   */
  validated?: ValidatedRecords;
  /** Retention's size cap, kept between apply slices (./spool-applier.ts). */
  between?: BetweenSlices;
}

/** The server's ingest handler plus the spool's controls. */
export interface SpooledIngest {
  handle(req: IngestRequest): Promise<IngestAnswer>;
  /**
   * Answers a request that missed `/v1/ingest` as the hosted API would, and logs it with a
   * hint built on `baseUrl` (src/ingest/misdirected.ts). Never throws.
   */
  handleMisdirected(req: MisdirectedRequest, baseUrl: string): IngestAnswer;
  /**
   * Applies everything acknowledged so far (yielding to I/O between slices) or until
   * `timeoutMs` — by default 5 s for an ordinary backlog, none for a flood's; rejects with
   * the store's error when applying fails. Readers call this first.
   */
  settle(timeoutMs?: number): Promise<SpoolState>;
  state(): SpoolState;
  /** Stops the timers; whatever is still spooled is applied by the next start. */
  close(): void;
}

/**
 * How long a read waits for the backlog to be applied. It waits only for the requests
 * acknowledged before it, and only when applying those should take at most SETTLE_BUDGET_MS
 * at the measured rate (and they are at most SMALL_BACKLOG items) — what a steady load keeps
 * spooled — so it sees every flush acknowledged before it. A bigger backlog (a flood, or a
 * machine too busy to keep up) is not waited for at all: the read is answered at once with
 * what is stored, and the dashboard shows the backlog. (Waiting up to 250 ms behind a flood's
 * slices, and up to 5 s for 20,000 items, set the dashboard's p99 at 0.9–5 s: issue 19.)
 */
const SETTLE_SMALL_MS = 5000;
const SETTLE_LARGE_MS = 0;
const SMALL_BACKLOG = 5_000;
const SETTLE_BUDGET_MS = 1000;

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
  let spooledRequests = 0;
  let lastGroupMs = -Infinity;
  // Once the file is lost, the spool's `failing` says so too: the dashboard's failure banner
  // shows it, and /api/status has it, without the renderer knowing a new field.
  let lostReason: string | null = null;
  const fileLost = createFileLossCheck(store, (line, problem) => {
    lostReason = `database ${problem}; ${FILE_LOST_FIX}`;
    options.warn?.(line);
    announcer.announce();
  });

  const state = (): SpoolState => ({
    pendingRequests: backlog.requests,
    pendingPayloads: backlog.payloads,
    spooledRequests,
    failing: lostReason ?? applier.failing()?.message ?? null,
  });
  const announcer = createSpoolAnnouncer(bus, state);
  // Refusals are tiny but can come in floods: identical ones are counted on one row.
  const refusals = createRefusalLog(store, bus);
  const validated = options.validated ?? createValidatedRecords();
  const applier = createSpoolApplier({
    store,
    bus,
    backlog,
    lastGroupMs: () => lastGroupMs,
    nearlyFull: () => backlog.payloads >= maxBacklog / 2,
    changed: announcer.announce,
    validated,
    between: options.between,
  });

  /** Acknowledges the requests of one turn of the event loop together. */
  function commitGroup(): void {
    const waiting = group;
    group = [];
    lastGroupMs = performance.now();
    const lost = fileLost();
    if (lost) {
      for (const w of waiting) w.resolve(lost);
      return;
    }
    try {
      if (waiting.length === 1 && backlog.requests === 0) {
        // Nobody else is waiting: store it now, as a synchronous server would.
        const { record } = waiting[0]!.verdict;
        publishWritten(bus, record, store.writeBatch(record));
      } else {
        // A store that cannot apply must not keep acknowledging.
        if (applier.failing()) applier.applySlice();
        // A full spool: these acknowledgements wait until it is back under its bound.
        // (Retention's size cap keeps pace here too: these are a flood's slices.)
        while (backlog.payloads >= maxBacklog) applier.advance(FULL_SPOOL_SLICE_MS);
        const ids = store.spool.add(waiting.map((w) => spoolEntryOf(w.verdict)));
        waiting.forEach(({ verdict }, i) => {
          backlog.requests++;
          backlog.payloads += verdict.items;
          validated.keep(ids[i]!, verdict.body, verdict.record, verdict.items);
        });
        spooledRequests += waiting.length;
        applier.schedule(BUSY_MS);
        announcer.announce();
      }
    } catch (error) {
      for (const w of waiting) w.resolve(storeFailure(error));
      return;
    }
    for (const w of waiting) w.resolve(w.verdict.answer);
  }

  applier.schedule(0);

  return {
    handle(req) {
      const verdict = examine(req, rateLimiter);
      if (verdict.kind === 'refused') {
        const lost = fileLost();
        if (lost) return Promise.resolve(lost);
        // Refusals are tiny: recorded straight away for the ingest log (repeats counted).
        try {
          refusals.write(verdict.record, refusalSignature(verdict.record));
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
      const small =
        backlog.payloads <= SMALL_BACKLOG &&
        backlog.payloads * applier.msPerItem() <= SETTLE_BUDGET_MS;
      timeoutMs ??= small ? SETTLE_SMALL_MS : SETTLE_LARGE_MS;
      // Requests are applied in arrival order: once as many have been applied as had been
      // spooled when this read arrived, it sees every one acknowledged before it.
      const before = spooledRequests;
      await applier.drain(
        performance.now() + timeoutMs,
        () => spooledRequests - backlog.requests >= before,
      );
      return state();
    },

    handleMisdirected(req, baseUrl) {
      const { answer, record, signature } = misdirectedVerdict(req, baseUrl);
      // The hosted answer either way; a database lost while serving gets no log row.
      if (fileLost()) return answer;
      try {
        refusals.write(record, signature);
      } catch {
        // A full or read-only disk: the answer is the same, the log is best effort.
      }
      return answer;
    },

    state,

    close() {
      refusals.close();
      applier.close();
      announcer.close();
    },
  };
}
