import type { LiveBus } from '../ingest/bus.js';
import type { SpoolState } from '../shared/spool.js';
import type { RouteKey } from '../shared/api-routes.js';
import { FileLostError, isWritable, type ReadStore, type Store } from '../store/index.js';
import type { CallFilter } from '../shared/rows.js';

/** Everything a JSON API handler may use. */
export interface ApiContext {
  /** The database; the server's is writable, an in-process caller's may be read-only. */
  store: ReadStore;
  /** The query string. */
  query: URLSearchParams;
  /** `:name` segments of the matched route. */
  params: Record<string, string>;
  /** The parsed JSON body of a POST/PUT/DELETE, or undefined. */
  body: unknown;
  /** The common filters (`project`, `from`, `to`, `tool`, `client`, `session`) already parsed. */
  filter: CallFilter;
  /** Facts about the running server, for the status and setup pages (absent in-process). */
  server?: ServerInfo;
  /** The live bus, for routes that announce a change (clear-all publishes `cleared`). */
  bus?: LiveBus;
  /** The ingest spool's backlog (absent when a route runs without the server). */
  spool?: () => SpoolState;
}

/** Facts about the running listener. */
export interface ServerInfo {
  /** The URL SDKs should use, e.g. `http://localhost:7857`. */
  endpoint: string;
  /** Every address actually bound, e.g. `127.0.0.1:7857`, `[::1]:7857`. */
  addresses: string[];
  port: number;
  dbPath: string;
  startedMs: number;
  version: string;
  /**
   * The words that run this install's CLI from any folder (`node /abs/dist/cli/main.js`), or
   * null where there is none (a packaged app): the dashboard puts them in front of every
   * command it suggests, so each one runs where it is shown.
   */
  cli: string[] | null;
}

/**
 * A non-JSON answer (a file download, plain text) that a handler may return instead of a JSON
 * body. `body` may be an iterable of chunks, written with backpressure, so a large export
 * streams instead of being built in memory.
 */
export class RawResponse {
  constructor(
    readonly contentType: string,
    readonly body: string | Iterable<string>,
    /** When set, offered as a download under this name (`content-disposition: attachment`). */
    readonly filename?: string,
  ) {}
}

/**
 * A handler returns the JSON body (status 200), a {@link RawResponse}, or throws an
 * {@link ApiError}.
 */
export type ApiHandler = (ctx: ApiContext) => unknown;

/** One map of routes: `'GET /api/sessions/:id'` → handler (checked with `satisfies`, so each
 * handler keeps its own return type for the `Api` type). */
export type RouteMap = Record<RouteKey, ApiHandler>;

/**
 * What a read must see before it runs: `derived` — every acknowledged batch applied and the
 * derived facts up to date, failing with the store's error when that cannot commit (metrics,
 * exports); `applied` — the spool applied if it can be, answering anyway while the database is
 * in trouble (raw rows, settings); `none` — as it stands (the spool's own backlog).
 */
export type Freshness = 'derived' | 'applied' | 'none';

/** An error with the HTTP status and a message the UI can show as is. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The 503 for a write once the database file is lost (deleted, replaced or overwritten while
 * serving): ingest's words — `could not store …: database <path> was deleted while serving;
 * restart mcpulse-devtools serve …` — so a settings change or a clear is never answered 200
 * into a file no later start will open. Nothing when the file is fine or the store read-only.
 */
export function refuseLostFile(store: ReadStore, what = 'the change'): void {
  const problem = isWritable(store) ? store.fileProblem() : null;
  if (problem)
    throw new ApiError(503, `could not store ${what}: ${new FileLostError(problem).message}`);
}

/** The store of an operation that writes; a read-only open cannot answer it, nor a lost file. */
export function writable(store: ReadStore, what?: string): Store {
  if (!isWritable(store)) throw new ApiError(500, 'store opened read-only');
  refuseLostFile(store, what);
  return store;
}
