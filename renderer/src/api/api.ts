/**
 * The typed API client: an {@link ApiPath} is a URL that carries which operation it asks, so
 * what `getApi`, `sendApi` (and `useApi`, hooks/useApi.ts) answer is the operation's own type
 * from the server's handler map (`Api`, src/api/handlers.ts). Pages never name a response type
 * for a fetch. This module imports no hook: the data layer runs one way, client ← live ←
 * useResource ← useApi, with no import circle.
 */
import { API_ROUTES, type ApiName } from '../../../src/shared/api-routes';
import { getJson, sendJson } from './http';
import type { Api } from './types';

declare const operation: unique symbol;

/** The URL of operation `K` (path and query). */
export type ApiPath<K extends ApiName> = string & { readonly [operation]: K };

/**
 * The URL of `name` with `:name` path segments filled from `pathParams` (encoded) and `search`
 * (`''` or `?…`) appended.
 */
export function apiPath<K extends ApiName>(
  name: K,
  search = '',
  pathParams: Record<string, string> = {},
): ApiPath<K> {
  const template = API_ROUTES[name].split(' ')[1]!;
  const path = template.replace(/:([a-zA-Z_]+)/g, (_, key: string) =>
    encodeURIComponent(pathParams[key] ?? ''),
  );
  // The brand is a compile-time tag on the string; at run time an ApiPath is just its URL.
  return `${path}${search}` as ApiPath<K>;
}

/** `path` with more query values (a cursor, a page), still asking the same operation. */
export function withQuery<K extends ApiName>(
  path: ApiPath<K>,
  extra: Record<string, string | number>,
): ApiPath<K> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(extra)) q.set(k, String(v));
  return `${path}${path.includes('?') ? '&' : '?'}${q.toString()}` as ApiPath<K>;
}

/**
 * The JSON body is the server's answer to operation `K`: this is the one place the renderer
 * takes the network's word for the type, and the type is the server's own.
 */
const answerOf = <K extends ApiName>(_path: ApiPath<K>, body: unknown): Api[K] => body as Api[K];

/** Fetches operation `K` once. */
export async function getApi<K extends ApiName>(
  path: ApiPath<K>,
  signal?: AbortSignal,
): Promise<Api[K]> {
  return answerOf(path, await getJson(path, signal));
}

/** Sends a change to operation `name` (its own method: `PUT`, `POST`, `DELETE`) with a JSON body. */
export async function sendApi<K extends ApiName>(name: K, body?: unknown): Promise<Api[K]> {
  const [method] = API_ROUTES[name].split(' ') as ['PUT' | 'POST' | 'DELETE'];
  const path = apiPath(name);
  return answerOf(path, await sendJson(method, path, body));
}
