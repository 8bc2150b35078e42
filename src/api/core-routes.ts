import { isWritable } from '../store/index.js';
import { ApiError, type RouteMap } from './types.js';
import { intParam, oneOf } from './params.js';
import { DEFAULT_PROJECTS, MAX_PROJECTS, projectsView } from './projects-view.js';

/**
 * The raw-data routes: what was stored, exactly as it was sent, plus the listener's state.
 * Metrics live in metrics-routes.ts.
 */
export const coreRoutes = {
  'GET /api/status': ({ store, server, spool }) => {
    if (!server) throw new ApiError(404, 'status describes a running server; there is none here');
    return {
      ...server,
      counts: store.read.counts(),
      spool: spool?.() ?? null,
      // Why new batches are refused, when the file was deleted, replaced or overwritten.
      databaseProblem: isWritable(store) ? store.fileProblem() : null,
      // Over HTTP this answer is given only past the owner token (src/server/auth-gate.ts);
      // without it the status is a LockedStatus (src/shared/owner-token.ts).
      authorised: true as const,
    };
  },

  // The spool's backlog as it stands — this route alone does not wait for it to be applied.
  'GET /api/spool': ({ spool }) => ({ spool: spool?.() ?? null }),

  // The most recently seen first, `?limit=` of them (default 500, at most 5,000) and the total.
  'GET /api/projects': ({ store, query }) =>
    projectsView(
      store,
      Math.min(Math.max(intParam(query, 'limit') ?? DEFAULT_PROJECTS, 1), MAX_PROJECTS),
    ),

  'GET /api/calls': ({ store, filter, query }) => {
    const order = oneOf(query, 'order', ['asc', 'desc'] as const, 'asc');
    const limit = intParam(query, 'limit') ?? 1000;
    return { calls: store.read.calls(filter, { limit, order, before: intParam(query, 'before') }) };
  },

  'GET /api/startups': ({ store, filter, query }) => ({
    startups: store.read.startups(
      { projectId: filter.projectId, session: filter.session },
      { limit: intParam(query, 'limit'), before: intParam(query, 'before') },
    ),
  }),

  'GET /api/batches': ({ store, filter, query }) => ({
    batches: store.read.batches(
      { projectId: filter.projectId },
      { limit: intParam(query, 'limit'), before: intParam(query, 'before') },
    ),
  }),

  'GET /api/rejections': ({ store, filter, query }) => ({
    rejections: store.read.rejections(
      { projectId: filter.projectId, batchId: intParam(query, 'batch') },
      { limit: intParam(query, 'limit'), before: intParam(query, 'before') },
    ),
  }),
} satisfies RouteMap;
