/**
 * The API's operations by name, each with its HTTP route: the one list the server routes by, the
 * in-process callers (`callApi`) and the renderer (`useApi`) name operations from. What each
 * answers is derived from its handler (src/api/handlers.ts, the `Api` type).
 */
export const API_ROUTES = {
  status: 'GET /api/status',
  spool: 'GET /api/spool',
  projects: 'GET /api/projects',
  calls: 'GET /api/calls',
  call: 'GET /api/calls/:id',
  messages: 'GET /api/messages',
  startups: 'GET /api/startups',
  batches: 'GET /api/batches',
  rejections: 'GET /api/rejections',
  agreements: 'GET /api/agreements',
  summary: 'GET /api/summary',
  insights: 'GET /api/insights',
  clients: 'GET /api/clients',
  tools: 'GET /api/tools',
  tool: 'GET /api/tools/:name',
  toolErrors: 'GET /api/tools/:name/errors',
  pairs: 'GET /api/pairs',
  sessions: 'GET /api/sessions',
  session: 'GET /api/sessions/:id',
  compare: 'GET /api/compare',
  chains: 'GET /api/chains',
  timeseries: 'GET /api/timeseries',
  sizes: 'GET /api/sizes',
  metricsCalls: 'GET /api/metrics/calls',
  pricing: 'GET /api/settings/pricing',
  setPricing: 'PUT /api/settings/pricing',
  retention: 'GET /api/settings/retention',
  setRetention: 'PUT /api/settings/retention',
  clear: 'POST /api/admin/clear',
  redaction: 'GET /api/settings/redaction',
  setRedaction: 'PUT /api/settings/redaction',
  redactionPreview: 'POST /api/redaction/preview',
  export: 'GET /api/export',
  connection: 'GET /api/connection',
  sessionEnding: 'GET /api/sessions/:id/ending',
} as const;

/** The name of one API operation. */
export type ApiName = keyof typeof API_ROUTES;

/** An HTTP route key, `'GET /api/sessions/:id'`. */
export type RouteKey = `${'GET' | 'POST' | 'PUT' | 'DELETE'} /api/${string}`;

/** Query and path values of a call; undefined, null and empty values are left out. */
export type ApiParams = Record<string, string | number | boolean | undefined | null>;

/**
 * The URL of an operation: `:name` path segments are taken from `params` (encoded), the rest
 * become the query string.
 */
export function apiUrl(name: ApiName, params: ApiParams = {}): string {
  const { path, query } = splitParams(name, params);
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** The path (with `:name` segments filled from `params`) and the remaining query values. */
export function splitParams(
  name: ApiName,
  params: ApiParams,
): { method: string; path: string; pathParams: Record<string, string>; query: URLSearchParams } {
  const [method, template] = API_ROUTES[name].split(' ') as [string, string];
  const pathParams: Record<string, string> = {};
  const path = template.replace(/:([a-zA-Z_]+)/g, (_, key: string) => {
    const v = params[key];
    if (v === undefined || v === null || v === '') throw new Error(`${name}: missing ${key}`);
    pathParams[key] = String(v);
    return encodeURIComponent(String(v));
  });
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (k in pathParams || v === undefined || v === null || v === '') continue;
    query.set(k, String(v));
  }
  return { method, path, pathParams, query };
}
