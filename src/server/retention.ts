/**
 * The server's background retention: the timer that applies the retention caps while the
 * dashboard runs (src/store/retention/). Started after the listener is bound, stopped first
 * on close, so no pass runs against a store that is closing.
 */
import type { Store } from '../store/index.js';
import { createRetention, type RetentionOptions } from '../store/retention/index.js';

/** A running retention timer. */
export interface BackgroundRetention {
  /** Stops the timer (a pass in progress finishes its current chunk). */
  stop(): void;
}

/** Starts retention over `store`; `false` leaves it off (a no-op `stop`). */
export function startRetention(
  store: Store,
  options: RetentionOptions | false | undefined,
): BackgroundRetention {
  if (options === false) return { stop: () => undefined };
  const retention = createRetention(store, options);
  retention.start();
  return { stop: () => retention.stop() };
}
