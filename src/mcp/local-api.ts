/**
 * The dashboard's JSON API, called in-process over a database file — no server, no HTTP — so
 * `report` and the MCP server show exactly the numbers the dashboard shows: the same route
 * table, the same filter parser, the same handlers (and so the metrics engine's one
 * implementation of every definition).
 */
import { adminRoutes } from '../server/api/admin-routes.js';
import { coreRoutes } from '../server/api/core-routes.js';
import { metricsRoutes } from '../server/api/metrics-routes.js';
import { compileRoutes, matchRoute, parseFilter } from '../server/api/router.js';
import { ApiError, type ServerInfo } from '../server/api/types.js';
import { VERSION } from '../server/version.js';
import type { Store } from '../store/index.js';

export { ApiError } from '../server/api/types.js';

const routes = compileRoutes(coreRoutes, metricsRoutes, adminRoutes);

/** Query values; undefined and empty values are left out. */
export type Query = Record<string, string | number | boolean | undefined | null>;

/** Builds a query string from values, skipping the absent ones. */
export function toSearchParams(query: Query): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== '') out.set(k, String(v));
  }
  return out;
}

/**
 * `GET path` against `store`, as the HTTP API would answer it. Throws {@link ApiError} for
 * what the API would answer 4xx (a bad filter, an unknown session).
 */
export async function apiGet<T>(store: Store, path: string, query: Query = {}): Promise<T> {
  const { handler, params } = matchRoute(routes, 'GET', path);
  const search = toSearchParams(query);
  const server: ServerInfo = {
    endpoint: '',
    addresses: [],
    port: 0,
    dbPath: store.path,
    startedMs: Date.now(),
    version: VERSION,
  };
  const filter = parseFilter(search, store);
  const result = await handler({ store, query: search, params, body: undefined, filter, server });
  if (result === undefined) throw new ApiError(500, `${path} answered nothing`);
  return result as T;
}
