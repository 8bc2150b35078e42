/**
 * The one HTTP sidecar: `/v1/ingest` for SDKs, `/api/*` JSON and `/api/stream` SSE for the
 * renderer, and the built renderer itself. The CLI and the Electron shell both start exactly
 * this, so the dashboard is identical in a browser tab and in the app window.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  createSpooledIngest,
  LiveBus,
  MAX_BODY_BYTES,
  RateLimiter,
  type SpooledIngest,
} from '../ingest/index.js';
import type { Store } from '../store/index.js';
import { createRetention, type RetentionOptions } from '../store/retention/index.js';
import { adminRoutes } from './api/admin-routes.js';
import { coreRoutes } from './api/core-routes.js';
import { exportRoutes } from './api/export-routes.js';
import { metricsRoutes } from './api/metrics-routes.js';
import { compileRoutes, matchRoute, parseFilter } from './api/router.js';
import { ApiError, RawResponse, type RouteMap, type ServerInfo } from './api/types.js';
import { hostAllowed, isLoopbackName, originAllowed, type HostPolicy } from './host-guard.js';
import { listenAll, PortInUseError } from './listen.js';
import { readBody } from './read-body.js';
import { COMMON_HEADERS } from './security-headers.js';
import { openEventStream } from './sse.js';
import { defaultRendererDir, serveStatic } from './static.js';
import { VERSION } from './version.js';

export { PortInUseError } from './listen.js';
export type { ServerInfo } from './api/types.js';

/** Options for {@link startServer}. */
export interface ServerOptions {
  store: Store;
  /** 0 picks a free port. Default 7857. */
  port?: number;
  /**
   * Addresses to bind. Default: both loopbacks, `127.0.0.1` and `::1`. Anything else is an
   * explicit opt-in to LAN/Docker access.
   */
  hosts?: string[];
  /** Extra `Host` names to accept (e.g. `host.docker.internal`). */
  allowedHosts?: string[];
  /** Enforce the hosted 10,000 payloads/min per key limit (default true). */
  rateLimit?: boolean;
  /** The built renderer; default `out/renderer` at the package root. */
  rendererDir?: string;
  /** Extra API routes (tests, later features). */
  routes?: RouteMap;
  /** Retention timer options (src/store/retention/); `false` turns it off. */
  retention?: RetentionOptions | false;
  /** The ingest spool's bound in items (src/ingest/spool.ts); default 1,000,000. */
  maxSpoolPayloads?: number;
}

/** A running server. */
export interface RunningServer {
  /** The dashboard and ingest URL, e.g. `http://localhost:7857`. */
  url: string;
  info: ServerInfo;
  bus: LiveBus;
  close(): Promise<void>;
}

const LOOPBACKS = ['127.0.0.1', '::1'];

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Writes a {@link RawResponse}; a chunked body waits for the socket to drain between chunks. */
async function sendRaw(res: ServerResponse, raw: RawResponse): Promise<void> {
  const headers: Record<string, string> = {
    'content-type': raw.contentType,
    'cache-control': 'no-store',
  };
  if (raw.filename) {
    const ascii = raw.filename.replace(/[^\w.-]/g, '_');
    headers['content-disposition'] =
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(raw.filename)}`;
  }
  if (typeof raw.body === 'string') {
    res.writeHead(200, { ...headers, 'content-length': String(Buffer.byteLength(raw.body)) });
    res.end(raw.body);
    return;
  }
  res.writeHead(200, headers);
  try {
    for (const chunk of raw.body) {
      if (res.destroyed) return;
      if (!res.write(chunk))
        await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
    }
    res.end();
  } catch {
    // Headers are gone: the only honest signal left is a cut connection.
    res.destroy();
  }
}

/** Starts the server; rejects with {@link PortInUseError} when the port is taken. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { store } = options;
  const hosts = options.hosts?.length ? options.hosts : LOOPBACKS;
  const policy: HostPolicy = {
    allowedHosts: [
      ...(options.allowedHosts ?? []),
      ...hosts.filter((h) => !isLoopbackName(h) && h !== '0.0.0.0' && h !== '::'),
    ].map((h) => h.toLowerCase()),
    wildcard: hosts.some((h) => h === '0.0.0.0' || h === '::'),
  };
  const bus = new LiveBus();
  const ingest: SpooledIngest = createSpooledIngest({
    store,
    bus,
    rateLimiter: options.rateLimit === false ? undefined : new RateLimiter(),
    maxBacklogPayloads: options.maxSpoolPayloads,
  });
  const readsDerived = new Set([...Object.values(metricsRoutes), ...Object.values(exportRoutes)]);
  const routes = compileRoutes(
    coreRoutes,
    metricsRoutes,
    adminRoutes,
    exportRoutes,
    options.routes ?? {},
  );
  const rendererDir = options.rendererDir ?? defaultRendererDir();
  const info: ServerInfo = {
    endpoint: '',
    addresses: [],
    port: 0,
    dbPath: store.path,
    startedMs: Date.now(),
    version: VERSION,
  };

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
    if (path === '/v1/ingest') {
      if (req.method !== 'POST')
        return sendJson(res, 405, { error: 'use POST /v1/ingest' }, { allow: 'POST' });
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
    if (path === '/api/stream') {
      const project = url.searchParams.get('project');
      return openEventStream(
        req,
        res,
        bus,
        project ? (store.read.resolveProject(project) ?? -1) : undefined,
      );
    }
    if (path.startsWith('/api/')) return handleApi(req, res, url);
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendJson(res, 405, { error: `${req.method} is not supported here` });
    serveStatic(rendererDir, path, res);
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    try {
      const { handler, params } = matchRoute(routes, req.method ?? 'GET', url.pathname);
      let body: unknown;
      if (req.method !== 'GET' && req.method !== 'HEAD') {
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
      // Every acknowledged batch is applied before a read sees the data (and deferred derived
      // facts brought up to date). A metrics read fails with the store's error when that
      // cannot commit; routes reading raw rows or settings answer anyway, so they keep working
      // while the database is in trouble (full disk, damaged pages).
      if (readsDerived.has(handler)) {
        await ingest.settle();
        store.flushDerived();
      } else if (handler !== coreRoutes['GET /api/spool']) {
        await ingest.settle().catch(() => undefined);
      }
      const filter = parseFilter(url.searchParams, store);
      const result = await handler({
        store,
        query: url.searchParams,
        params,
        body,
        filter,
        server: info,
        bus,
        spool: ingest.state,
      });
      if (result instanceof RawResponse) return await sendRaw(res, result);
      sendJson(res, 200, result);
    } catch (error) {
      if (error instanceof ApiError) return sendJson(res, error.status, { error: error.message });
      const message = error instanceof Error ? error.message : String(error);
      sendJson(res, 500, { error: `internal error: ${message}` });
    }
  }

  const makeServer = (): Server => {
    const server = createServer((req, res) => {
      handle(req, res).catch((error: unknown) => {
        if (!res.headersSent)
          sendJson(res, 500, { error: `internal error: ${(error as Error).message}` });
        else res.destroy();
      });
    });
    server.keepAliveTimeout = 65_000;
    server.requestTimeout = 30_000;
    return server;
  };

  let bound: Awaited<ReturnType<typeof listenAll>> | undefined;
  // With port 0 the kernel picks a port on the first address; on the rare chance the same
  // number is taken on the second, try again with a fresh one.
  for (let attempt = 0; ; attempt++) {
    try {
      bound = await listenAll(makeServer, hosts, options.port ?? 7857);
      break;
    } catch (error) {
      if (!(error instanceof PortInUseError) || options.port !== 0 || attempt >= 5) throw error;
    }
  }
  const displayHost =
    policy.wildcard || hosts.some((h) => isLoopbackName(h)) ? 'localhost' : hosts[0]!;
  info.port = bound.port;
  info.addresses = bound.addresses;
  info.endpoint = `http://${displayHost.includes(':') ? `[${displayHost}]` : displayHost}:${bound.port}`;
  const servers = bound.servers;
  const retention =
    options.retention === false ? undefined : createRetention(store, options.retention);
  retention?.start();
  return {
    url: info.endpoint,
    info,
    bus,
    close: async () => {
      retention?.stop();
      ingest.close();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}
