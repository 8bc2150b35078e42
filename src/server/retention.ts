/**
 * The server's background retention: the timer that applies the retention caps while the
 * dashboard runs (src/store/retention/). Started after the listener is bound, stopped first
 * on close, so no pass runs against a store that is closing.
 */
import type { LiveBus } from '../ingest/index.js';
import type { Store } from '../store/index.js';
import { createRetention, type RetentionOptions } from '../store/retention/index.js';

/** A running retention timer. */
export interface BackgroundRetention {
  /** Stops the timer (a pass in progress finishes its current chunk). */
  stop(): void;
}

/**
 * Starts retention over `store`; `false` leaves it off (a no-op `stop`). A pass that deleted
 * anything says so on the live stream, so open dashboards refetch instead of showing rows
 * that are gone.
 */
export function startRetention(
  store: Store,
  options: RetentionOptions | false | undefined,
  bus?: LiveBus,
): BackgroundRetention {
  if (options === false) return { stop: () => undefined };
  const retention = createRetention(store, {
    ...options,
    onPass: (report) => {
      options?.onPass?.(report);
      const rows = Object.values(report.deleted).reduce((a, b) => a + b, 0);
      if (rows > 0)
        bus?.publish({
          type: 'retention',
          data: { at_ms: report.finished_ms, calls: report.deleted.calls, rows },
        });
    },
  });
  retention.start();
  return { stop: () => retention.stop() };
}
