/**
 * The live stream (`/api/stream`, server-sent events), coalesced. At 200 calls/s a render per
 * event would freeze the page, so events are buffered and released at most every
 * {@link FLUSH_MS}: one version bump (pages refetch once) and one batch of new calls for the
 * live feed, however many events arrived in between.
 */
import { useSyncExternalStore } from 'react';
import type { Call } from './core-types';

const FLUSH_MS = 400;
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
}

type Listener = () => void;

class LiveHub {
  private snapshot: LiveSnapshot = {
    state: 'connecting',
    version: 0,
    feed: [],
    received: 0,
    rate: 0,
  };
  private readonly listeners = new Set<Listener>();
  private source: EventSource | null = null;
  private pendingCalls: Call[] = [];
  private pendingOther = 0;
  /** A `cleared` event arrived: the feed starts over from the calls after it. */
  private pendingCleared = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private rateWindow: { at: number; n: number }[] = [];

  subscribe = (l: Listener): (() => void) => {
    this.listeners.add(l);
    if (!this.source) this.connect();
    return () => this.listeners.delete(l);
  };

  get = (): LiveSnapshot => this.snapshot;

  private set(patch: Partial<LiveSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const l of this.listeners) l();
  }

  private connect(): void {
    // All projects: the feed filters client-side, so switching project needs no reconnect.
    const source = new EventSource('/api/stream');
    this.source = source;
    source.onopen = () => this.set({ state: 'open' });
    // EventSource reconnects by itself (the server sends `retry: 2000`); we only show it.
    source.onerror = () => this.set({ state: 'reconnecting' });
    source.addEventListener('call', (e) => {
      try {
        this.pendingCalls.push(JSON.parse((e as MessageEvent<string>).data) as Call);
      } catch {
        this.pendingOther++;
      }
      this.schedule();
    });
    source.addEventListener('cleared', () => {
      this.pendingCalls = [];
      this.pendingCleared = true;
      this.pendingOther++;
      this.schedule();
    });
    for (const type of ['batch', 'startup', 'rejection']) {
      source.addEventListener(type, () => {
        this.pendingOther++;
        this.schedule();
      });
    }
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), FLUSH_MS);
  }

  private flush(): void {
    this.timer = null;
    const calls = this.pendingCalls;
    const n = calls.length + this.pendingOther;
    const cleared = this.pendingCleared;
    this.pendingCalls = [];
    this.pendingOther = 0;
    this.pendingCleared = false;
    if (n === 0) return;
    const now = Date.now();
    this.rateWindow.push({ at: now, n: calls.length });
    this.rateWindow = this.rateWindow.filter((w) => now - w.at < 5000);
    const span = Math.max(
      1,
      Math.min(5, (now - (this.rateWindow[0]?.at ?? now)) / 1000 + FLUSH_MS / 1000),
    );
    const rate = this.rateWindow.reduce((s, w) => s + w.n, 0) / span;
    // Newest first; only the last FEED_SIZE matter, so a burst of thousands costs one slice.
    const fresh = calls.slice(-FEED_SIZE).reverse();
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
    if (calls.length) setTimeout(() => this.decay(), 5200);
  }

  private decay(): void {
    const now = Date.now();
    this.rateWindow = this.rateWindow.filter((w) => now - w.at < 5000);
    if (!this.rateWindow.length && this.snapshot.rate !== 0) this.set({ rate: 0 });
  }
}

const hub = new LiveHub();

export function useLive(): LiveSnapshot {
  return useSyncExternalStore(hub.subscribe, hub.get);
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
