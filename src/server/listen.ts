import type { Server } from 'node:http';

/** The port is taken: one clear line for the user, with the fix. */
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    host: string,
  ) {
    super(
      `port ${port} on ${host} is already in use (another mcpulse-devtools?) — ` +
        `stop it, or pick another port with --port N or MCPULSE_DEVTOOLS_PORT=N`,
    );
  }
}

function listenOnce(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(port, host) : error);
    };
    const onListening = (): void => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ port, host, exclusive: true });
  });
}

/** Formats `host:port` the way a URL wants it (`[::1]:7857`). */
export const formatAddress = (host: string, port: number): string =>
  `${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * Binds one server per host on the same port. The first host picks the port when `port` is 0;
 * the rest follow it. A host whose address family the machine lacks (no IPv6) is skipped, but
 * a busy port is always an error: an SDK pointed at `localhost` may resolve to `::1` first and
 * would silently drop everything if we quietly listened on IPv4 alone.
 */
export async function listenAll(
  makeServer: () => Server,
  hosts: readonly string[],
  port: number,
): Promise<{ servers: Server[]; port: number; addresses: string[] }> {
  const servers: Server[] = [];
  const addresses: string[] = [];
  let bound = port;
  try {
    for (const host of hosts) {
      const server = makeServer();
      try {
        bound = await listenOnce(server, bound, host);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (servers.length > 0 && (code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT')) continue;
        throw error;
      }
      servers.push(server);
      addresses.push(formatAddress(host, bound));
    }
  } catch (error) {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    throw error;
  }
  return { servers, port: bound, addresses };
}
