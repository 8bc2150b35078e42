import {
  isExposed,
  PortInUseError,
  ReadPool,
  startServer,
  type RunningServer,
} from '../../server/index.js';
import { dashboardLink } from '../../shared/owner-token.js';
import type { Store } from '../../store/index.js';
import { parseFlags, parsePort } from '../flags.js';
import { UsageError, type CliIO, type Command } from '../io.js';
import { DatabaseOpenError, openDbForCli } from '../../host/open-db.js';
import { defaultDbPath, defaultPort } from '../../host/paths.js';
import { serverToken, TokenFileError } from '../../host/token.js';
import { prog } from '../invocation.js';

const USAGE = `usage: ${prog()} serve [--port N] [--db PATH] [--host ADDR]… [--allow-host NAME]… [--token VALUE] [--no-rate-limit] [--max-spool N]

  --port N          port to listen on (default 7857, or $MCPULSE_DEVTOOLS_PORT; 0 picks one)
  --db PATH         database file (default ~/.mcpulse-devtools/devtools.db, or $MCPULSE_DEVTOOLS_DB)
  --host ADDR       listen on ADDR instead of loopback (e.g. 0.0.0.0 for Docker/LAN): ingest is
                    open to the network; the dashboard and API then need the token, page included
  --allow-host NAME also accept requests addressed to NAME (e.g. host.docker.internal)
  --token VALUE     the owner token the dashboard and API ask for (default $MCPULSE_DEVTOOLS_TOKEN,
                    else the one kept in ~/.mcpulse-devtools/token, made on first run)
  --no-rate-limit   do not refuse batches over production's 10,000 payloads/min per key
  --max-spool N     calls acknowledged ahead of storing before flushes wait (default 1000000)
  --read-threads N  threads the dashboard's reads run on besides one kept for quick views
                    (default: the cores, at least 2); 0 reads on the ingest thread (for comparison)
`;

/** A started server and its store, for callers that embed `serve` (start, demo). */
export interface Served {
  server: RunningServer;
  store: Store;
  /** Non-loopback addresses the user opted in to, if any. */
  hosts: string[];
  /** The owner token this server asks for. */
  token: string;
  stop(): Promise<void>;
}

/** Parses serve's flags, opens the database and starts the server. Throws user-facing errors. */
export async function serveFromArgs(argv: string[], io: CliIO): Promise<Served | 'help'> {
  const { values } = parseFlags(argv, {
    port: { type: 'string' },
    db: { type: 'string' },
    host: { type: 'string', multiple: true },
    'allow-host': { type: 'string', multiple: true },
    'no-rate-limit': { type: 'boolean' },
    'max-spool': { type: 'string' },
    'read-threads': { type: 'string' },
    token: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  const port = parsePort(values.port, defaultPort(io.env));
  const dbPath = values.db ?? defaultDbPath(io.env);
  const maxSpool = values['max-spool'] === undefined ? undefined : Number(values['max-spool']);
  if (maxSpool !== undefined && !(Number.isInteger(maxSpool) && maxSpool >= 0))
    throw new UsageError(
      `--max-spool: expected a whole number of calls, received '${values['max-spool']}'`,
    );
  const readThreads =
    values['read-threads'] === undefined ? undefined : Number(values['read-threads']);
  if (
    readThreads !== undefined &&
    !(Number.isInteger(readThreads) && readThreads >= 0 && readThreads <= 64)
  )
    throw new UsageError(
      `--read-threads: expected a whole number from 0 to 64, received '${values['read-threads']}'`,
    );
  // Before the database: a token that cannot be trusted stops here, with nothing opened.
  const token = serverToken(values.token, io.env);
  const store = openDbForCli(dbPath, {
    instanceLock: true,
    backgroundCheckpoints: true,
    deferDerived: true,
    tell: (line) => io.stderr.write(line),
  });
  try {
    const server = await startServer({
      store,
      port,
      hosts: values.host,
      allowedHosts: values['allow-host'],
      rateLimit: !values['no-rate-limit'],
      maxSpoolPayloads: maxSpool,
      token,
      readPool:
        readThreads === undefined
          ? undefined
          : readThreads === 0
            ? false
            : new ReadPool({ shared: readThreads }),
    });
    return {
      server,
      store,
      hosts: values.host ?? [],
      token,
      stop: async () => {
        await server.close();
        store.close();
      },
    };
  } catch (error) {
    store.close();
    throw error;
  }
}

/** The lines printed once the server is up. */
export function describeServer({ server, hosts, token }: Served, io: CliIO): void {
  const { info } = server;
  const exposed = isExposed(hosts);
  io.stdout.write(
    [
      `MCPulse Devtools ${info.version} listening on ${info.addresses.join(', ')}` +
        (exposed
          ? ' — ingest open to the network; dashboard and API need the token'
          : ' — this machine only; dashboard and API need the token'),
      // The link carries the token: opening it once lets this browser in (a cookie keeps it).
      `  dashboard  ${dashboardLink(server.url, token)}`,
      `             (open this link; \`${prog()} token\` prints it again)`,
      // The value to paste comes first and alone: pasting the route made SDKs post to
      // /v1/ingest/v1/ingest (they add the route themselves).
      `  endpoint   ${server.url}   ← paste this into your SDK's endpoint option (any non-empty key)`,
      `  ingest     POST ${server.url}/v1/ingest   (the route the SDK adds itself — not the endpoint;`,
      "             no MCPulse SDK reads MCPULSE_ENDPOINT — the Setup page shows each SDK's option)",
      `  database   ${info.dbPath}`,
      '',
    ].join('\n'),
  );
  if (exposed) {
    io.stderr.write(
      `warning: listening on ${hosts.join(', ')} — anyone who can reach this machine can send telemetry to it; ` +
        `the dashboard, its API and the status answer only requests with the token\n`,
    );
  }
}

/** Resolves when SIGINT or SIGTERM arrives. */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

/** Maps the failures a user can fix to one line and exit code 1. */
export function reportStartupError(error: unknown, io: CliIO): number {
  if (
    error instanceof PortInUseError ||
    error instanceof DatabaseOpenError ||
    error instanceof TokenFileError
  ) {
    io.stderr.write(`mcpulse-devtools: ${error.message}\n`);
    return 1;
  }
  throw error;
}

export const command: Command = {
  summary: 'run the ingest listener and dashboard headless (no Electron)',
  async run(argv, io) {
    let served: Served | 'help';
    try {
      served = await serveFromArgs(argv, io);
    } catch (error) {
      return reportStartupError(error, io);
    }
    if (served === 'help') {
      io.stdout.write(USAGE);
      return 0;
    }
    describeServer(served, io);
    await untilSignal();
    await served.stop();
    return 0;
  },
};
