/**
 * Routes for "is my SDK connected?": the newest payload (which client, which session, how many
 * calls) and the newest request that missed `/v1/ingest` for the Setup page, and the sessions whose last batch looks lost (docs/metrics.md,
 * "Lost last batch") for the Setup page and the session view.
 */
import { QUIET_MS, sessionEndingsOf } from '../store/session-endings.js';
import { intParam } from './params.js';
import { ApiError, type RouteMap } from './types.js';

/** `GET /api/connection` and `GET /api/sessions/:id/ending` (docs/api.md). */
export const connectionRoutes = {
  'GET /api/connection': ({ store, filter, query }) => {
    const endings = sessionEndingsOf(store);
    return {
      latest: endings.latest(filter.projectId),
      lost_batches: endings.recent({
        ...(filter.projectId === undefined ? {} : { projectId: filter.projectId }),
        nowMs: Date.now(),
        limit: intParam(query, 'limit') ?? 20,
      }),
      quiet_ms: QUIET_MS,
      // The newest request that missed /v1/ingest (a wrong endpoint option), whatever the
      // project: it belongs to none, and it is the likeliest reason nothing arrives.
      misdirected: store.read.batches({ misdirected: true }, { limit: 1 })[0] ?? null,
    };
  },

  'GET /api/sessions/:id/ending': ({ store, filter, params }) => {
    const endings = sessionEndingsOf(store);
    const projectId = filter.projectId ?? endings.projectOf(params.id!);
    if (projectId === undefined) throw new ApiError(404, `no session ${params.id}`);
    return { ending: endings.judge(projectId, params.id!, Date.now()), quiet_ms: QUIET_MS };
  },
} satisfies RouteMap;
