/**
 * Finding the dashboard at `--url`, or starting one there: how `demo` and `proxy` get somewhere
 * to send telemetry. Loads the server (and SQLite) only when it has to start one.
 */
import type { CliIO } from '../io.js';
import { TOKEN_HELP } from '../../shared/owner-token.js';
import { defaultDbPath } from '../../host/paths.js';
import { isLoopbackUrl, probeDevtools } from './demo-probe.js';
import type { Served } from './serve.js';

/**
 * Where telemetry goes: an endpoint, the owner token it takes (when known), and the dashboard
 * this process started, if it did.
 */
export type FoundDashboard =
  { endpoint: string; token?: string; served?: Served } | { exit: number };

/**
 * Finds the dashboard at `url`, or starts one there (loopback URLs only). `label` prefixes
 * every line it prints; `io.stdout` receives the informational lines, `io.stderr` the problems.
 */
export async function findOrStartDashboard(
  url: string,
  db: string | undefined,
  io: CliIO,
  label: string,
  token?: string,
): Promise<FoundDashboard> {
  const probe = await probeDevtools(url, undefined, token);
  if (probe.kind === 'locked') {
    // Telemetry still goes in (ingest is open); only reading it back needs the token.
    io.stderr.write(
      `${label}: the dashboard at ${url} does not take ${token === undefined ? 'requests without its token' : 'this token'} — telemetry goes to it; to view it, ${TOKEN_HELP.charAt(0).toLowerCase()}${TOKEN_HELP.slice(1)}\n`,
    );
    return token === undefined ? { endpoint: url } : { endpoint: url, token };
  }
  if (probe.kind === 'devtools') {
    io.stdout.write(
      `${label}: sending to the dashboard already running at ${url} (database ${probe.dbPath})\n`,
    );
    if (db !== undefined && db !== probe.dbPath) {
      io.stderr.write(
        `${label}: note: --db ${db} is ignored — that dashboard uses ${probe.dbPath}\n`,
      );
    }
    return token === undefined ? { endpoint: url } : { endpoint: url, token };
  }
  if (probe.kind === 'other') {
    io.stderr.write(
      `${label}: something else answers at ${url} (${probe.detail}); pass --url with a free port\n`,
    );
    return { exit: 1 };
  }
  const parsed = new URL(url);
  if (!isLoopbackUrl(parsed)) {
    io.stderr.write(
      `${label}: no dashboard answers at ${url} (${probe.detail}), and it is not on this machine\n`,
    );
    return { exit: 1 };
  }
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  const { describeServer, reportStartupError, serveFromArgs } = await import('./serve.js');
  let served: Served | 'help';
  try {
    served = await serveFromArgs(
      [
        ...['--port', port, '--db', db ?? defaultDbPath(io.env)],
        // The token this command was given, so its own requests are the owner's.
        ...(token === undefined ? [] : ['--token', token]),
      ],
      io,
    );
  } catch (error) {
    return { exit: reportStartupError(error, io) };
  }
  if (served === 'help') return { exit: 2 };
  describeServer(served, io);
  return { endpoint: served.server.url, token: served.token, served };
}
