/**
 * The live stream (`/api/stream`, server-sent events), coalesced. At 200 calls/s a render per
 * event would freeze the page, so events are buffered and released at most every
 * {@link FLUSH_MS}: one version bump (pages refetch once) and one batch of new calls for the
 * live feed, however many events arrived in between.
 *
 * The ingest spool's backlog (`spool` events, at most every 250 ms while there is one) is not
 * data: it updates {@link LiveSnapshot.spool} as it arrives, without a version bump.
 */
import { useSyncExternalStore } from 'react';
import type { Call, SpoolState } from './types';
import { getApi } from './api';
import { corePaths } from './core';

const FLUSH_MS = 400;
/**
 * While the spool has a backlog, its state is asked for when no event brought it for this long:
 * the flood of calls being applied can leave the stream behind or cut (the server drops a reader
 * 4 MiB behind), and the count should keep moving anyway.
 */
const SPOOL_STALE_MS = 1000;
/** The live feed keeps this many recent calls; older ones are on the Calls page. */
const FEED_SIZE = 200;

export type LiveState = 'connecting' | 'open' | 'reconnecting';

export interface LiveSnapshot {
  state: LiveState;
  /** Bumps once per flush that carried any data event. Pages refetch when it changes. */
  version: number;
  /** Newest first. */
  feed: Call[];
  /** Events received since the page opened (for the rate readout). */
  received: number;
  /** Calls per second over the last few seconds. */
  rate: number;
  /**
   * The ingest spool: acknowledged requests still being applied, and why applying fails if it
   * does. `null` until known (or when the server has no spool).
   */
  spool: SpoolState | null;
}

type Listener = () => void;

class LiveHub {
  private snapshot: LiveSnapshot = {
    state: 'connecting',
    version: 0,
    feed: [],
    received: 0,
    rate: 0,
    spool: null,
  };
  private readonly listeners = new Set<Listener>();
  private source: EventSource | null = null;
  /**
   * Raw `call` events since the last flush. Only the newest {@link FEED_SIZE} are ever parsed:
   * a backlog being applied sends thousands a second, and parsing them all would starve the page.
   */
  private pendingCalls: string[] = [];
  private pendingOther = 0;
  /** A `cleared` event arrived: the feed starts over from the calls after it. */
  private pendingCleared = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private rateWindow: { at: number; n: number }[] = [];
  /** Counts `spool` events, so a fetched state older than an event is dropped. */
  private spoolSeq = 0;
  /** When the spool's state last arrived (event or fetch), and whether a fetch is running. */
  private spoolAt = 0;
  private spoolFetching = false;
  private spoolWatch: ReturnType<typeof setInterval> | null = null;

  subscribe = (l: Listener): (() => void) => {
    this.listeners.add(l);
    this.start();
    return () => this.listeners.delete(l);
  };

  start(): void {
    if (!this.source) this.connect();
  }

  get = (): LiveSnapshot => this.snapshot;

  private set(patch: Partial<LiveSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const l of this.listeners) l();
  }

  private connect(): void {
    // All projects: the feed filters client-side, so switching project needs no reconnect.
    const source = new EventSource('/api/stream');
    this.source = source;
    source.onopen = () => {
      // After a reconnect, events sent while the stream was down are lost (the server cuts a
      // reader that falls 4 MiB behind, as during a spool backlog's flood): pages refetch once.
      const missed = this.snapshot.state === 'reconnecting';
      this.set({ state: 'open', version: this.snapshot.version + (missed ? 1 : 0) });
      // Events only say what changes: a page opened (or a stream reopened) mid-backlog asks.
      this.fetchSpool();
    };
    // EventSource reconnects by itself (the server sends `retry: 2000`); we only show it.
    source.onerror = () => this.set({ state: 'reconnecting' });
    source.addEventListener('call', (e) => {
      this.pendingCalls.push((e as MessageEvent<string>).data);
      this.schedule();
    });
    source.addEventListener('cleared', () => {
      this.pendingCalls = [];
      this.pendingCleared = true;
      this.pendingOther++;
      this.schedule();
    });
    source.addEventListener('spool', (e) => {
      try {
        const spool = JSON.parse((e as MessageEvent<string>).data) as SpoolState;
        this.spoolSeq++;
        this.setSpool(spool);
      } catch {
        // A malformed event changes nothing; the next one (or the next reopen) corrects it.
      }
    });
    // A retention pass deleted rows: every view may have changed, like a new batch.
    for (const type of ['batch', 'startup', 'agreement', 'rejection', 'retention']) {
      source.addEventListener(type, () => {
        this.pendingOther++;
        this.schedule();
      });
    }
  }

  private setSpool(spool: SpoolState | null): void {
    this.spoolAt = Date.now();
    this.set({ spool });
    // Watch for staleness only while there is something to report.
    const busy = spool !== null && (spool.pendingRequests > 0 || spool.failing !== null);
    if (busy && !this.spoolWatch) {
      this.spoolWatch = setInterval(() => {
        if (Date.now() - this.spoolAt >= SPOOL_STALE_MS) this.fetchSpool();
      }, SPOOL_STALE_MS);
    } else if (!busy && this.spoolWatch) {
      clearInterval(this.spoolWatch);
      this.spoolWatch = null;
    }
  }

  private fetchSpool(): void {
    if (this.spoolFetching) return;
    this.spoolFetching = true;
    const seq = this.spoolSeq;
    getApi(corePaths.spool)
      .then(({ spool }) => {
        // An event that arrived while this was in flight is newer.
        if (seq === this.spoolSeq) this.setSpool(spool);
      })
      .catch(() => {
        // An older server without the route, or a blip: the stream's events still arrive.
      })
      .finally(() => (this.spoolFetching = false));
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), FLUSH_MS);
  }

  private flush(): void {
    this.timer = null;
    const raw = this.pendingCalls;
    const n = raw.length + this.pendingOther;
    const cleared = this.pendingCleared;
    this.pendingCalls = [];
    this.pendingOther = 0;
    this.pendingCleared = false;
    if (n === 0) return;
    const now = Date.now();
    this.rateWindow.push({ at: now, n: raw.length });
    this.rateWindow = this.rateWindow.filter((w) => now - w.at < 5000);
    const span = Math.max(
      1,
      Math.min(5, (now - (this.rateWindow[0]?.at ?? now)) / 1000 + FLUSH_MS / 1000),
    );
    const rate = this.rateWindow.reduce((s, w) => s + w.n, 0) / span;
    // Newest first; only the last FEED_SIZE matter, so a burst of thousands costs one slice.
    const fresh: Call[] = [];
    for (let i = raw.length - 1; i >= 0 && fresh.length < FEED_SIZE; i--) {
      try {
        fresh.push(JSON.parse(raw[i]!) as Call);
      } catch {
        // Not a call row: nothing to show for it (it still counted as data).
      }
    }
    const kept = cleared ? [] : this.snapshot.feed;
    const feed = fresh.length || cleared ? fresh.concat(kept).slice(0, FEED_SIZE) : kept;
    this.set({
      version: this.snapshot.version + 1,
      feed,
      received: this.snapshot.received + n,
      rate,
      state: 'open',
    });
    // The rate decays to zero when traffic stops.
    if (raw.length) setTimeout(() => this.decay(), 5200);
  }

  private decay(): void {
    const now = Date.now();
    this.rateWindow = this.rateWindow.filter((w) => now - w.at < 5000);
    if (!this.rateWindow.length && this.snapshot.rate !== 0) this.set({ rate: 0 });
  }
}

const hub = new LiveHub();

/**
 * Opens the stream before the first render: the browser allows six connections to the server,
 * and while a spool backlog is applied every page read waits for it — a stream opened after the
 * page's reads would queue behind them.
 */
export function startLive(): void {
  hub.start();
}

export function useLive(): LiveSnapshot {
  return useSyncExternalStore(hub.subscribe, hub.get);
}

/** Only the spool's state: the shell's backlog indicator re-renders when it changes, nothing else. */
export function useSpool(): SpoolState | null {
  return useSyncExternalStore(hub.subscribe, () => hub.get().spool);
}

/** Only the version: for data hooks that refetch on new data. */
export function useLiveVersion(): number {
  return useSyncExternalStore(hub.subscribe, () => hub.get().version);
}

/**
 * Calls `onBump` after each flush that carried data, without re-rendering anything: data hooks
 * use this so a live bump costs a fetch, and a render only when the answer changed.
 */
export function onLiveBump(onBump: () => void): () => void {
  let version = hub.get().version;
  return hub.subscribe(() => {
    const next = hub.get().version;
    if (next !== version) {
      version = next;
      onBump();
    }
  });
}
