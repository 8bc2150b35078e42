/**
 * The spool's announcer: the dashboard hears about the backlog while there is one, and once
 * more when it is gone or applying fails or recovers — at most every {@link ANNOUNCE_MS}, never
 * for a lone stored request.
 */
import type { SpoolState } from '../shared/spool.js';
import type { LiveBus } from './bus.js';

/** The live `spool` event is sent at most this often while the backlog changes. */
const ANNOUNCE_MS = 250;

/** Sends `spool` events for a state that changed. */
export interface SpoolAnnouncer {
  /** The state may have changed: send it now, or once the rate limit allows. */
  announce(): void;
  /** Stops the timer; nothing is sent after. */
  close(): void;
}

/** An announcer of `state()` on `bus`. */
export function createSpoolAnnouncer(bus: LiveBus, state: () => SpoolState): SpoolAnnouncer {
  let lastSent: SpoolState | null = null;
  let timer: NodeJS.Timeout | undefined;
  let dirty = false;
  let closed = false;
  const quiet = (s: SpoolState | null): boolean =>
    s === null || (s.pendingRequests === 0 && s.failing === null);

  function announce(): void {
    if (closed) return;
    if (timer) {
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
    timer = setTimeout(() => {
      timer = undefined;
      if (dirty) announce();
    }, ANNOUNCE_MS);
    timer.unref();
  }

  return {
    announce,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
