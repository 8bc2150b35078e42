import { parseTimestamp } from '../../ingest/timestamp.js';
import type { Store } from '../../store/index.js';
import type { CallFilter } from '../../shared/rows.js';
import { ApiError, type ApiHandler, type RouteMap } from './types.js';

interface CompiledRoute {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: ApiHandler;
}

/** Compiles a {@link RouteMap} once; `:name` segments match one path segment. */
export function compileRoutes(...maps: RouteMap[]): CompiledRoute[] {
  const routes: CompiledRoute[] = [];
  for (const map of maps) {
    for (const [key, handler] of Object.entries(map)) {
      const [method, path] = key.split(' ') as [string, string];
      const names: string[] = [];
      const source = path.replace(/:([a-zA-Z_]+)/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      routes.push({ method, pattern: new RegExp(`^${source}$`), names, handler });
    }
  }
  return routes;
}

/** Finds the route for a request; distinguishes 404 (no path) from 405 (wrong method). */
export function matchRoute(
  routes: CompiledRoute[],
  method: string,
  pathname: string,
): { handler: ApiHandler; params: Record<string, string> } {
  let pathMatched = false;
  for (const r of routes) {
    const m = r.pattern.exec(pathname);
    if (!m) continue;
    pathMatched = true;
    if (r.method !== method) continue;
    const params: Record<string, string> = {};
    r.names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1]!);
    });
    return { handler: r.handler, params };
  }
  throw pathMatched
    ? new ApiError(405, `${method} is not supported on ${pathname}`)
    : new ApiError(404, `no API route ${pathname}`);
}

/** Parses an ISO 8601 query value (with offset, or a plain date meaning UTC midnight). */
export function parseInstant(name: string, value: string): number {
  const ms =
    parseTimestamp(value) ??
    (/^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : null);
  if (ms === null || Number.isNaN(ms)) {
    throw new ApiError(
      400,
      `${name}: expected an ISO 8601 time such as 2026-12-02T10:00:00Z, received '${value}'`,
    );
  }
  return ms;
}

/** Reads the shared filters (`project`, `from`, `to`, `tool`, `client`, `session`) from a query. */
export function parseFilter(query: URLSearchParams, store: Store): CallFilter {
  const filter: CallFilter = {};
  const project = query.get('project');
  if (project) {
    const id = store.read.resolveProject(project);
    // An unknown project is a filter that matches nothing, not an error: links stay valid
    // across a clear-all. -1 never matches a rowid.
    filter.projectId = id ?? -1;
  }
  const from = query.get('from');
  if (from) filter.from = parseInstant('from', from);
  const to = query.get('to');
  if (to) filter.to = parseInstant('to', to);
  for (const name of ['tool', 'client', 'session'] as const) {
    const v = query.get(name);
    if (v) filter[name] = v;
  }
  return filter;
}

/** Reads an optional non-negative integer query value. */
export function intParam(query: URLSearchParams, name: string): number | undefined {
  const v = query.get(name);
  if (v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw new ApiError(400, `${name}: expected a non-negative integer, received '${v}'`);
  return n;
}
