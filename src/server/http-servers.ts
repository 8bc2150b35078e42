/**
 * The node:http side of the listener: one `http.Server` per bound address, all serving the
 * same request handler, with the timeouts the dashboard and SDKs need, and a close that drops
 * keep-alive connections so shutdown is immediate.
 */
import { createServer, type Server } from 'node:http';
import { listenAll, PortInUseError } from './listen.js';
import type { RequestHandler } from './request-handler.js';
import { sendJson } from './respond.js';

/** The bound servers. */
export interface HttpServers {
  port: number;
  /** `host:port` per bound address. */
  addresses: string[];
  /** Closes every server and its open connections. */
  close(): Promise<void>;
}

// A rejection of `handle` is answered 500 (or the socket dropped mid-response).
function makeServer(handle: RequestHandler): Server {
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
}

/** Binds `handle` on every host at `port`; rejects with {@link PortInUseError} when taken. */
export async function serveHttp(
  handle: RequestHandler,
  hosts: readonly string[],
  port: number,
): Promise<HttpServers> {
  let bound: Awaited<ReturnType<typeof listenAll>> | undefined;
  // With port 0 the kernel picks a port on the first address; on the rare chance the same
  // number is taken on the second, try again with a fresh one.
  for (let attempt = 0; ; attempt++) {
    try {
      bound = await listenAll(() => makeServer(handle), hosts, port);
      break;
    } catch (error) {
      if (!(error instanceof PortInUseError) || port !== 0 || attempt >= 5) throw error;
    }
  }
  const { servers } = bound;
  return {
    port: bound.port,
    addresses: bound.addresses,
    close: async () => {
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
