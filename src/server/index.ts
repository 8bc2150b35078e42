/**
 * The one HTTP sidecar: `/v1/ingest` for SDKs, `/api/*` JSON and `/api/stream` SSE for the
 * renderer, and the built renderer itself. The CLI and the Electron shell both start exactly
 * this, so the dashboard is identical in a browser tab and in the app window.
 */
import { createServer, type Server } from 'node:http';
import type { RouteMap, ServerInfo } from '../api/types.js';
import { DEFAULT_PORT } from '../shared/defaults.js';
import { createSpooledIngest, LiveBus, RateLimiter, type SpooledIngest } from '../ingest/index.js';
import type { Store } from '../store/index.js';
import { createRetention, type RetentionOptions } from '../store/retention/index.js';
import { isLoopbackName, type HostPolicy } from './host-guard.js';
import { listenAll, PortInUseError } from './listen.js';
import { createRequestHandler } from './request-handler.js';
import { sendJson } from './respond.js';
import { defaultRendererDir } from './static.js';
import { VERSION } from './version.js';

export { PortInUseError } from './listen.js';
export type { ServerInfo } from '../api/types.js';

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
  const rendererDir = options.rendererDir ?? defaultRendererDir();
  const info: ServerInfo = {
    endpoint: '',
    addresses: [],
    port: 0,
    dbPath: store.path,
    startedMs: Date.now(),
    version: VERSION,
  };

  const app = { bus, spool: ingest.state, settle: ingest.settle, info };
  const handle = createRequestHandler({
    store,
    ingest,
    info,
    app,
    policy,
    rendererDir,
    routes: options.routes,
  });

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
      bound = await listenAll(makeServer, hosts, options.port ?? DEFAULT_PORT);
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
