/**
 * The one HTTP sidecar: `/v1/ingest` for SDKs, `/api/*` JSON and `/api/stream` SSE for the
 * renderer, and the built renderer itself. The CLI and the Electron shell both start exactly
 * this, so the dashboard is identical in a browser tab and in the app window.
 */
import type { RouteMap, ServerInfo } from '../api/types.js';
import { DEFAULT_PORT } from '../shared/defaults.js';
import {
  createSpooledIngest,
  LiveBus,
  RateLimiter,
  startStoredContentRedaction,
  type RedactionPassReport,
  type SpooledIngest,
} from '../ingest/index.js';
import type { BetweenSlices } from '../ingest/spool-applier.js';
import type { Store } from '../store/index.js';
import type { RetentionOptions } from '../store/retention/index.js';
import { endpointFor, hostPolicyFor, isLoopbackName } from './host-guard.js';
import { serveHttp } from './http-servers.js';
import { sharedReadPool, type ReadPool } from './read-pool/pool.js';
import { createRequestHandler } from './request-handler.js';
import { startRetention } from './retention.js';
import { defaultRendererDir } from './static.js';
import { VERSION } from './version.js';
import { cliWords } from './cli-words.js';

export { PortInUseError } from './listen.js';
export { ReadPool, type ReadPoolOptions, type ReadPoolStats } from './read-pool/pool.js';
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
  /**
   * The owner token (src/host/token.ts): every route but ingest and the status needs it, and,
   * bound beyond loopback, the status and the page too. There is no way to turn it off.
   */
  token: string;
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
  /** Where one-line warnings go (the database lost while serving); default stderr. */
  warn?: (line: string) => void;
  /**
   * The threads API reads run on (src/server/read-pool/): default the process's shared pool;
   * `false` answers reads on the server's own thread (the benchmark's baseline).
   */
  readPool?: ReadPool | false;
}

/** A running server. */
export interface RunningServer {
  /** The dashboard and ingest URL, e.g. `http://localhost:7857`. */
  url: string;
  info: ServerInfo;
  bus: LiveBus;
  /** The one-time redaction of content stored unredacted: its report, or null (not needed, stopped). */
  redactionPass: Promise<RedactionPassReport | null>;
  close(): Promise<void>;
}

const LOOPBACKS = ['127.0.0.1', '::1'];

/** Bound on any address other machines can reach (a wildcard, a LAN or Docker address). */
export const isExposed = (hosts: readonly string[]): boolean =>
  hosts.some((h) => !isLoopbackName(h.toLowerCase()));

/**
 * Starts the server; rejects with {@link PortInUseError} when the port is taken. The parts:
 * the ingest spool (src/ingest), the request handler (./request-handler.ts), the listeners
 * (./http-servers.ts) and background retention (./retention.ts).
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { store } = options;
  const hosts = options.hosts?.length ? options.hosts : LOOPBACKS;
  const policy = hostPolicyFor(hosts, options.allowedHosts);
  const bus = new LiveBus();
  // Retention starts once the listener is bound, after ingest is built: its size cap's steps
  // run between the applier's slices from then on (src/store/retention/keep-up.ts).
  let keepUp: BetweenSlices | undefined;
  const ingest: SpooledIngest = createSpooledIngest({
    between: {
      due: () => keepUp?.due() ?? false,
      step: () => keepUp?.step(),
      room: () => keepUp?.room?.() ?? Infinity,
    },
    store,
    bus,
    rateLimiter: options.rateLimit === false ? undefined : new RateLimiter(),
    maxBacklogPayloads: options.maxSpoolPayloads,
    warn: options.warn ?? ((line) => process.stderr.write(`${line}\n`)),
  });
  const info: ServerInfo = {
    endpoint: '',
    addresses: [],
    port: 0,
    dbPath: store.path,
    startedMs: Date.now(),
    version: VERSION,
    cli: cliWords(),
  };

  const app = { bus, spool: ingest.state, settle: ingest.settle, info };
  const readPool = options.readPool === false ? null : (options.readPool ?? sharedReadPool());
  readPool?.warm();
  const handle = createRequestHandler({
    store,
    ingest,
    info,
    app,
    policy,
    auth: { token: options.token, exposed: isExposed(hosts) },
    rendererDir: options.rendererDir ?? defaultRendererDir(),
    routes: options.routes,
    readPool,
  });

  const http = await serveHttp(handle, hosts, options.port ?? DEFAULT_PORT);
  info.port = http.port;
  info.addresses = http.addresses;
  info.endpoint = endpointFor(policy, hosts, http.port);
  // A pass rests longer while acknowledged calls wait in the spool: storing them comes first.
  const retention = startRetention(
    store,
    options.retention === false
      ? false
      : { ...options.retention, backlog: () => ingest.state().pendingPayloads > 0 },
    bus,
  );
  keepUp = retention.keepUp;
  // Content an earlier version stored unredacted is redacted once, in the background (issue 40).
  const redaction = startStoredContentRedaction(store);
  return {
    url: info.endpoint,
    info,
    bus,
    redactionPass: redaction.done,
    close: async () => {
      redaction.stop();
      keepUp = undefined;
      retention.stop();
      ingest.close();
      await http.close();
      // The read threads let go of this file: it may be deleted or replaced next.
      await readPool?.forget(store.path);
    },
  };
}
