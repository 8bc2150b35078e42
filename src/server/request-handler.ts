/**
 * The request handler: host and origin checks, then `/v1/ingest` to ingest, the proxy's
 * content (`/v1/local/proxy`) to its own ingest, `/api/stream` to
 * SSE, `/api/*` to the API's operations (src/api) and anything else to the built renderer.
 * No business logic lives here: it turns HTTP into an operation call and the answer back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runOperation, type AppContext } from '../api/call.js';
import {
  ApiError,
  RawResponse,
  refuseLostFile,
  type RouteMap,
  type ServerInfo,
} from '../api/types.js';
import {
  createContentIngest,
  INGEST_PATH,
  MAX_BODY_BYTES,
  MAX_CONTENT_BODY_BYTES,
  type SpooledIngest,
} from '../ingest/index.js';
import type { LockedStatus } from '../shared/owner-token.js';
import { PROXY_CONTENT_PATH } from '../shared/proxy-content.js';
import { AmbiguousProjectError, UnknownProjectError, type Store } from '../store/index.js';
import { STATUS_PATH } from './auth.js';
import { gate, UNAUTHORISED, type GateOptions } from './auth-gate.js';
import { hostAllowed, originAllowed, type HostPolicy } from './host-guard.js';
import { answerPooled, pooled } from './pooled-read.js';
import type { ReadPool } from './read-pool/pool.js';
import { readBody } from './read-body.js';
import { sendJson, sendRaw } from './respond.js';
import { compileRoutes, matchRoute } from './routes.js';
import { COMMON_HEADERS } from './security-headers.js';
import { openEventStream } from './sse.js';
import { serveStatic } from './static.js';

/** What the request handler serves. */
export interface RequestHandlerOptions {
  store: Store;
  ingest: SpooledIngest;
  /** The listener's facts; filled in once it is bound. */
  info: ServerInfo;
  /** The bus, spool and settle hook operations see. */
  app: AppContext & { bus: NonNullable<AppContext['bus']> };
  policy: HostPolicy;
  /** The owner token and whether the listener is open to the network (./auth-gate.ts). */
  auth: Omit<GateOptions, 'port'>;
  rendererDir: string;
  /** Extra API routes (tests, later features). */
  routes?: RouteMap;
  /** The read threads API reads run on; null answers them on this thread (./pooled-read.ts). */
  readPool: ReadPool | null;
}

/** A node:http request listener body; rejects only on an unexpected error. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Builds the request handler over one store and ingest. */
export function createRequestHandler(options: RequestHandlerOptions): RequestHandler {
  const { store, ingest, info, app, policy, rendererDir, readPool: pool } = options;
  const routes = compileRoutes(options.routes);
  const content = createContentIngest(store, app.bus);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [k, v] of Object.entries(COMMON_HEADERS)) res.setHeader(k, v);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (!hostAllowed(req.headers.host, path, policy)) {
      return sendJson(res, 403, {
        error: `Host '${req.headers.host ?? ''}' is not allowed: use http://localhost:${info.port}`,
      });
    }
    if (
      !originAllowed(req.headers.origin, policy, info.port) ||
      req.headers['sec-fetch-site'] === 'cross-site'
    ) {
      return sendJson(res, 403, { error: 'cross-origin requests are not allowed' });
    }
    const method = req.method ?? 'GET';
    // The proxy's own local route (src/shared/proxy-content.ts) is not a missed ingest.
    const misdirected =
      path === INGEST_PATH
        ? method !== 'POST'
        : !path.startsWith('/api/') &&
          path !== PROXY_CONTENT_PATH &&
          method !== 'GET' &&
          method !== 'HEAD';
    const door = gate(req, res, url, misdirected, { ...options.auth, port: () => info.port });
    if (door.answered) return;
    if (misdirected) {
      // Not an ingest, though probably meant as one: answered as the hosted API would, and
      // kept on the ingest log with what to change. The body is never read.
      req.resume();
      const answer = ingest.handleMisdirected(
        {
          method,
          path,
          userAgent: req.headers['user-agent'],
          bodyBytes: Number(req.headers['content-length']) || 0,
          receivedMs: Date.now(),
        },
        info.endpoint,
      );
      return sendJson(res, answer.status, answer.body, answer.headers);
    }
    if (path === INGEST_PATH) {
      const body = await readBody(req, MAX_BODY_BYTES);
      const answer = await ingest.handle({
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        userAgent: req.headers['user-agent'],
        body,
        receivedMs: Date.now(),
      });
      if (answer.body) return sendJson(res, answer.status, answer.body, answer.headers);
      res.writeHead(answer.status, answer.headers);
      res.end();
      return;
    }
    if (path === PROXY_CONTENT_PATH) {
      if (req.method !== 'POST')
        return sendJson(res, 405, { error: `use POST ${PROXY_CONTENT_PATH}` }, { allow: 'POST' });
      const answer = await content({
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        userAgent: req.headers['user-agent'],
        body: await readBody(req, MAX_CONTENT_BODY_BYTES),
        receivedMs: Date.now(),
      });
      if (answer.body) return sendJson(res, answer.status, answer.body, answer.headers);
      res.writeHead(answer.status, answer.headers);
      res.end();
      return;
    }
    if (path === '/api/stream') {
      const project = url.searchParams.get('project');
      let projectId: number | undefined;
      try {
        projectId = project ? store.read.resolveProject(project) : undefined;
      } catch (error) {
        // A key prefix two projects share: following either would hide the other.
        if (error instanceof AmbiguousProjectError)
          return sendJson(res, 400, { error: error.message });
        // A stream of a project nothing has would stay silent forever.
        if (error instanceof UnknownProjectError)
          return sendJson(res, 404, { error: error.message });
        throw error;
      }
      return openEventStream(req, res, app.bus, projectId);
    }
    if (path === STATUS_PATH && method === 'GET' && !door.authorised) {
      // Enough for a client to know it found MCPulse Devtools and for the page to show the
      // locked screen; nothing stored, not even the database's path.
      req.resume();
      const locked: LockedStatus = {
        version: info.version,
        authorised: false,
        error: UNAUTHORISED,
      };
      return sendJson(res, 200, locked);
    }
    if (path.startsWith('/api/')) return handleApi(req, res, url);
    if (method !== 'GET' && method !== 'HEAD')
      return sendJson(res, 405, { error: `${method} is not supported here` });
    serveStatic(rendererDir, path, res);
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    try {
      const { route, params } = matchRoute(routes, req.method ?? 'GET', url.pathname);
      let body: unknown;
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        // Every API write, today's and any added later, is refused into a lost file (503).
        refuseLostFile(store);
        const raw = await readBody(req, 1024 * 1024);
        if (raw === 'too-large') throw new ApiError(413, 'request body over 1 MiB');
        if (raw.length > 0) {
          if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
            throw new ApiError(415, 'send application/json');
          try {
            body = JSON.parse(raw.toString('utf8'));
          } catch {
            throw new ApiError(400, 'request body is not valid JSON');
          }
        }
      }
      if (
        pooled(pool, store, req.method ?? 'GET', route.operation) &&
        (await answerPooled(
          pool!,
          store,
          route.operation,
          route.freshness,
          { res, url, params },
          app,
        ))
      )
        return;
      const result = await runOperation(
        store,
        route.handler,
        route.freshness,
        { query: url.searchParams, params, body },
        app,
      );
      if (result instanceof RawResponse) return await sendRaw(res, result);
      sendJson(res, 200, result);
    } catch (error) {
      if (error instanceof ApiError) return sendJson(res, error.status, { error: error.message });
      const message = error instanceof Error ? error.message : String(error);
      sendJson(res, 500, { error: `internal error: ${message}` });
    }
  }

  return handle;
}
