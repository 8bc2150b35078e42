/**
 * The HTTP routing table over the API's operations: `METHOD /path` → handler, with `:name`
 * segments, 404 for an unknown path and 405 for a known path with the wrong method.
 */
import { FRESHNESS, handlers } from '../api/handlers.js';
import { ApiError, type ApiHandler, type Freshness, type RouteMap } from '../api/types.js';
import { API_ROUTES, type ApiName } from '../shared/api-routes.js';

/** One route, ready to match. */
export interface CompiledRoute {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: ApiHandler;
  /** What the operation must see first (src/api/call.ts `ensureFresh`). */
  freshness: Freshness;
  /** The API operation it runs; none for an extra route. */
  operation?: ApiName;
}

/**
 * Compiles the API's operations (and any extra routes, which read `applied` data) once;
 * `:name` segments match one path segment.
 */
export function compileRoutes(extra: RouteMap = {}): CompiledRoute[] {
  type Entry = [string, ApiHandler, Freshness, ApiName?];
  const entries: Entry[] = [
    ...(Object.keys(API_ROUTES) as ApiName[]).map((name): Entry => [
      API_ROUTES[name],
      handlers[name],
      FRESHNESS[name],
      name,
    ]),
    ...Object.entries(extra).map(([key, h]): Entry => [key, h, 'applied']),
  ];
  const routes: CompiledRoute[] = [];
  for (const [key, handler, freshness, operation] of entries) {
    const [method, path] = key.split(' ') as [string, string];
    const names: string[] = [];
    const source = path.replace(/:([a-zA-Z_]+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    routes.push({
      method,
      pattern: new RegExp(`^${source}$`),
      names,
      handler,
      freshness,
      operation,
    });
  }
  return routes;
}

/** Finds the route for a request; distinguishes 404 (no path) from 405 (wrong method). */
export function matchRoute(
  routes: CompiledRoute[],
  method: string,
  pathname: string,
): { route: CompiledRoute; params: Record<string, string> } {
  let pathMatched = false;
  for (const r of routes) {
    const m = r.pattern.exec(pathname);
    if (!m) continue;
    pathMatched = true;
    if (r.method !== method) continue;
    const params: Record<string, string> = {};
    r.names.forEach((n, i) => {
      params[n] = decodePathSegment(n, m[i + 1]!);
    });
    return { route: r, params };
  }
  throw pathMatched
    ? new ApiError(405, `${method} is not supported on ${pathname}`)
    : new ApiError(404, `no API route ${pathname}`);
}

/** A `:name` segment decoded; a malformed escape (`%E0`) is a 400 naming the segment. */
function decodePathSegment(name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ApiError(400, `${name}: '${raw.slice(0, 80)}' is not valid percent-encoded UTF-8`);
  }
}
