/**
 * Running an operation: one explicit {@link ensureFresh} before it, the shared filters parsed,
 * the handler called. The HTTP adapter (src/server) and the in-process callers — `report`,
 * `export`, the MCP server, the bench — go through {@link runOperation}, so they show exactly
 * the numbers the dashboard shows.
 */
import type { LiveBus } from '../ingest/bus.js';
import { splitParams, type ApiName, type ApiParams } from '../shared/api-routes.js';
import type { SpoolState } from '../shared/spool.js';
import type { ReadStore } from '../store/index.js';
import { FRESHNESS, handlers, type Api } from './handlers.js';
import { parseFilter } from './params.js';
import { ApiError, type ApiHandler, type Freshness, type ServerInfo } from './types.js';

export { ApiError } from './types.js';

/** What a running server adds to an operation; in-process callers have none of it. */
export interface AppContext {
  /** Facts about the listener (`/api/status`). */
  info?: ServerInfo;
  /** The live bus, for operations that announce a change. */
  bus?: LiveBus;
  /** The ingest spool's backlog. */
  spool?: () => SpoolState;
  /** Applies every acknowledged batch (the ingest spool); rejects when that cannot commit. */
  settle?: () => Promise<unknown>;
}

/** One request to an operation: the query, the `:name` path values and a parsed JSON body. */
export interface OperationRequest {
  query: URLSearchParams;
  params: Record<string, string>;
  body: unknown;
}

/**
 * Brings what an operation reads up to date: with `derived`, every acknowledged batch is
 * applied and the derived facts flushed, failing with the store's error when that cannot
 * commit; with `applied`, the spool is applied if it can be and the read answers anyway (so raw
 * rows and settings stay readable while the database is in trouble); `none` reads as it stands.
 */
export async function ensureFresh(
  store: ReadStore,
  freshness: Freshness,
  app: AppContext = {},
): Promise<void> {
  if (freshness === 'derived') {
    try {
      await app.settle?.();
      store.flushDerived();
    } catch (error) {
      // A full disk stops writing, not reading: answer with what is stored (the spool's
      // `failing` says what waits). Damaged pages still fail the read with their reason.
      if (!isDiskFull(error)) throw error;
    }
  } else if (freshness === 'applied') {
    await app.settle?.().catch(() => undefined);
  }
}

/** SQLite's "database or disk is full" (SQLITE_FULL), however it reached us. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return true;
  return error instanceof Error && /database or disk is full/.test(error.message);
}

/** Runs `handler` for a request: fresh data first, then the filters, then the handler. */
export async function runOperation(
  store: ReadStore,
  handler: ApiHandler,
  freshness: Freshness,
  request: OperationRequest,
  app: AppContext = {},
): Promise<unknown> {
  await ensureFresh(store, freshness, app);
  return runHandler(store, handler, request, app);
}

/**
 * Runs `handler` on what `store` holds now: the filters parsed, then the handler — no freshness
 * step, for a caller that made the data fresh elsewhere (a read thread, src/server/read-pool/,
 * whose writer brought it up to date before asking).
 */
export function runHandler(
  store: ReadStore,
  handler: ApiHandler,
  request: OperationRequest,
  app: Omit<AppContext, 'settle'> = {},
): unknown {
  const filter = parseFilter(request.query, store);
  return handler({
    store,
    ...request,
    filter,
    server: app.info,
    bus: app.bus,
    spool: app.spool,
  });
}

/**
 * Calls the operation `name` against `store`, as the HTTP API would answer it: `:name` path
 * values are taken from `params`, the rest is the query. Throws {@link ApiError} for what the
 * API would answer 4xx (a bad filter, an unknown session).
 */
export async function callApi<K extends ApiName>(
  store: ReadStore,
  name: K,
  params: ApiParams = {},
  body?: unknown,
  app?: AppContext,
): Promise<Api[K]> {
  const { pathParams, query } = splitParams(name, params);
  const request = { query, params: pathParams, body };
  const result = await runOperation(store, handlers[name], FRESHNESS[name], request, app);
  if (result === undefined) throw new ApiError(500, `${name} answered nothing`);
  // `handlers[name]` is Handlers[K], whose answer is Api[K] by definition; the compiler cannot
  // correlate the two through the map's union, so this is the one place that says so.
  return result as Api[K];
}
