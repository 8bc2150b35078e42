import {
  clearAll,
  DEFAULT_RETENTION,
  retentionSettingsOf,
  RETENTION_BOUNDS,
  retentionFor,
  RetentionSettingsError,
  retentionTotalsOf,
  saveRetentionSettings,
} from '../store/retention/index.js';
import type { ReadStore } from '../store/index.js';
import { ApiError, writable, type RouteMap } from './types.js';

/** The exact value `POST /api/admin/clear` needs in `confirm`. */
export const CLEAR_CONFIRMATION = 'delete all data';

function retentionView(store: ReadStore) {
  const runner = retentionFor(store);
  return {
    ...retentionSettingsOf(store),
    defaults: DEFAULT_RETENTION,
    bounds: RETENTION_BOUNDS,
    /** The last retention pass (null before the first, ~10 s after start). */
    last_pass: runner?.lastPass ?? null,
    /** Whether a pass is deleting now (its report comes when it ends). */
    running: runner?.running ?? false,
    /** Everything retention has deleted from this file, counted in the file itself. */
    totals: retentionTotalsOf(store),
  };
}

/**
 * Admin routes: the retention setting and clear-all. Both change or destroy data, so both
 * take a JSON body (a cross-site form cannot send one: the server answers 415 to anything but
 * application/json) and clear-all also wants a typed confirmation.
 */
export const adminRoutes = {
  'GET /api/settings/retention': ({ store }) => retentionView(store),

  'PUT /api/settings/retention': ({ store, body }) => {
    if (body === undefined)
      throw new ApiError(400, 'send the settings to change, e.g. {"max_age_days":14}');
    try {
      saveRetentionSettings(writable(store, 'the retention settings'), body);
    } catch (error) {
      if (error instanceof RetentionSettingsError) throw new ApiError(400, error.message);
      throw error;
    }
    retentionFor(store)?.schedule();
    return retentionView(store);
  },

  'POST /api/admin/clear': ({ store, body, bus }) => {
    const confirm = (body as { confirm?: unknown } | undefined)?.confirm;
    if (confirm !== CLEAR_CONFIRMATION) {
      throw new ApiError(
        400,
        `confirm: send {"confirm":"${CLEAR_CONFIRMATION}"} to delete every stored call, startup and ingest log entry (settings are kept)`,
      );
    }
    const deleted = clearAll(writable(store, 'the clear'));
    const atMs = Date.now();
    bus?.publish({ type: 'cleared', data: { at_ms: atMs } });
    return { cleared: true, at_ms: atMs, deleted };
  },
} satisfies RouteMap;
