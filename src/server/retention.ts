/**
 * The server's background retention: the timer that applies the retention caps while the
 * dashboard runs (src/store/retention/). Started after the listener is bound, stopped first
 * on close, so no pass runs against a store that is closing.
 */
import type { LiveBus } from '../ingest/index.js';
import type { BetweenSlices } from '../ingest/spool-applier.js';
import type { Store } from '../store/index.js';
import { createRetention, type RetentionOptions } from '../store/retention/index.js';

/** A running retention timer. */
export interface BackgroundRetention {
  /** Stops the timer (a pass in progress finishes its current chunk). */
  stop(): void;
  /** The size cap's steps, for the spool's applier to run between slices; none when off. */
  keepUp?: BetweenSlices;
}

/**
 * Between a flood's apply slices the size cap deletes continuously: its `retention` events are
 * gathered and sent at most this often, so open tabs refetch a few times, not per step.
 */
const KEEP_UP_EVENT_MS = 1000;

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
  let gathered = 0;
  let eventTimer: NodeJS.Timeout | undefined;
  const sendGathered = (): void => {
    eventTimer = undefined;
    const calls = gathered;
    gathered = 0;
    bus?.publish({ type: 'retention', data: { at_ms: Date.now(), calls, rows: calls } });
  };
  const retention = createRetention(store, {
    ...options,
    onKeepUp: (calls) => {
      options?.onKeepUp?.(calls);
      gathered += calls;
      eventTimer ??= setTimeout(sendGathered, KEEP_UP_EVENT_MS);
      eventTimer.unref();
    },
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
  return {
    stop: () => {
      clearTimeout(eventTimer);
      retention.stop();
    },
    keepUp: retention.keepUp,
  };
}
