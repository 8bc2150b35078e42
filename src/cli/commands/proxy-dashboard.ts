/**
 * Where the proxy's telemetry goes: the dashboard at `--url`, found or started as `demo` does.
 * For a stdio proxy this runs on the telemetry thread (proxy-telemetry.ts), so a dashboard the
 * proxy starts (its HTTP server, its SQLite writes) never shares an event loop with the relay.
 */
import { Writable } from 'node:stream';
import { probeDevtools } from './demo-probe.js';
import { findOrStartDashboard } from './find-dashboard.js';
import type { Served } from './serve.js';

/** Prefix of every line the proxy prints. */
export const LABEL = 'mcpulse-devtools proxy';

/** What learns where to send: the sink. */
export interface TelemetryTarget {
  connect(endpoint: string, token?: string): void;
  fail(reason: string): void;
}

/** Where to look, and where to say what happened. */
export interface DashboardOptions {
  url: string;
  db?: string;
  /** The owner token (`--token`, $MCPULSE_DEVTOOLS_TOKEN, the file), if found. */
  token?: string;
  env: NodeJS.ProcessEnv;
  stderr: NodeJS.WritableStream;
}

/**
 * How long to wait for the dashboard to say what it is. Longer than `demo`'s: a dashboard busy
 * ingesting on a loaded machine is still the dashboard, and giving up on it drops everything.
 */
const PROBE_TIMEOUT_MS = 5000;

/** Drops what it is given: the "found it" line is noise in a server's stderr. */
const quiet = (): Writable => new Writable({ write: (_chunk, _enc, done) => done() });

/**
 * Finds or starts the dashboard and points `target` at it; resolves to the dashboard this
 * started, if it started one (the caller stops it). Never rejects.
 */
export async function connectDashboard(
  options: DashboardOptions,
  target: TelemetryTarget,
): Promise<Served | undefined> {
  try {
    const probe = await probeDevtools(options.url, PROBE_TIMEOUT_MS, options.token);
    if (probe.kind === 'locked')
      options.stderr.write(
        `${LABEL}: the dashboard at ${options.url} does not take this account's token, so it will refuse message content (calls still go) — pass --token or set $MCPULSE_DEVTOOLS_TOKEN\n`,
      );
    // Found it; or something listens there and is slow to answer, which is not "nothing
    // there" (starting a dashboard on its port would fail): send there either way.
    if (
      probe.kind === 'devtools' ||
      probe.kind === 'locked' ||
      (probe.kind === 'none' && probe.detail === 'TimeoutError')
    ) {
      target.connect(options.url, options.token);
      return undefined;
    }
    // Nothing there (or something else): find-or-start probes again, quickly, and says why.
    const found = await findOrStartDashboard(
      options.url,
      options.db,
      { stdout: quiet(), stderr: options.stderr, stdin: process.stdin, env: options.env },
      LABEL,
      options.token,
    );
    if ('exit' in found) {
      target.fail(`no dashboard at ${options.url}`);
      return undefined;
    }
    target.connect(found.endpoint, found.token);
    if (found.served)
      options.stderr.write(
        `${LABEL}: started a dashboard at ${found.endpoint} (database ${found.served.server.info.dbPath}); it stops when this proxy exits\n`,
      );
    return found.served;
  } catch (error) {
    target.fail(`the dashboard could not be started: ${(error as Error).message}`);
    return undefined;
  }
}
