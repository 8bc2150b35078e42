/**
 * Asking a running dashboard for an operation over HTTP, typed by the API's own map (`Api`,
 * ./handlers.ts): the caller names the operation, never the answer's type, so no caller can
 * claim a shape the API does not return. Used by `import --url`, the tests, e2e and the bench.
 */
import { API_ROUTES, apiUrl, type ApiName, type ApiParams } from '../shared/api-routes.js';
import { TOKEN_HEADER } from '../shared/owner-token.js';
import type { Api } from './handlers.js';

/** Query values (encoded here), or a query string the caller already built (no `?`). */
export type ApiQuery = ApiParams | string;

/** The path and query of operation `name` (`:name` path values come from an object query). */
export function operationPath(name: ApiName, query: ApiQuery = {}): string {
  if (typeof query !== 'string') return apiUrl(name, query);
  const path = API_ROUTES[name].split(' ')[1]!;
  return query ? `${path}?${query}` : path;
}

/**
 * The body of a successful answer to `name`, as the server's own type for it: the one place a
 * remote caller takes the network's word for a shape, and the shape is the API's.
 */
export const answerOf = <K extends ApiName>(_name: K, body: unknown): Api[K] => body as Api[K];

/** The headers that carry the owner token, when there is one. */
export const tokenHeaders = (token: string | undefined): Record<string, string> =>
  token === undefined ? {} : { [TOKEN_HEADER]: token };

/**
 * GETs operation `name` from the dashboard at `base` with the owner `token` (every operation
 * but the status needs it); rejects unless the answer is 2xx, with the server's own words.
 */
export async function getRemote<K extends ApiName>(
  base: string,
  name: K,
  query: ApiQuery = {},
  init: { signal?: AbortSignal; token?: string } = {},
): Promise<Api[K]> {
  const path = operationPath(name, query);
  const res = await fetch(`${base}${path}`, {
    signal: init.signal,
    headers: tokenHeaders(init.token),
  });
  if (!res.ok) {
    const said = await res
      .json()
      .then((b: unknown) => {
        const error = (b as { error?: unknown } | null)?.error;
        return typeof error === 'string' ? `: ${error}` : '';
      })
      .catch(() => '');
    throw new Error(`${path}: HTTP ${res.status}${said}`);
  }
  return answerOf(name, await res.json());
}
