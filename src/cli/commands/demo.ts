import {
  runDemo,
  runProxiedDemo,
  DEMO_KEY,
  PROXIED_DEMO_KEY,
  type DemoResult,
} from '../../demo/index.js';
import { parseFlags } from '../flags.js';
import { UsageError, type CliIO, type Command } from '../io.js';
import { parseServerUrl } from './demo-probe.js';
import { findOrStartDashboard } from './find-dashboard.js';
import { untilSignal } from './serve.js';
import { clientToken } from '../../host/token.js';
import { dashboardLink } from '../../shared/owner-token.js';
import { prog } from '../invocation.js';
import { shellWord } from '../../shared/shell-word.js';

/** The link to open: with the token when this command knows it. */
const link = (endpoint: string, token: string | undefined): string =>
  token === undefined ? endpoint : dashboardLink(endpoint, token);

const USAGE = `usage: ${prog()} demo [--url URL] [--db PATH] [--key KEY] [--token VALUE] [--once] [--fast]

Runs a real MCP server (acme-tracker, built on @modelcontextprotocol/sdk) instrumented by an
MCPulse producer, drives it with scripted MCP clients — reworded retries, paging, errors,
crashes, several sessions and clients — and sends the telemetry through the ingest endpoint
of the dashboard at --url. If no dashboard answers there, starts one and keeps it running.

  --url URL   dashboard to send to (default http://localhost:7857, or $MCPULSE_DEVTOOLS_PORT)
  --db PATH   database of the dashboard this command starts, if it starts one
              (default ~/.mcpulse-devtools/devtools.db, or $MCPULSE_DEVTOOLS_DB)
  --key KEY   ingest key; one key is one project (default ${DEMO_KEY})
  --token VALUE  the dashboard's owner token (default $MCPULSE_DEVTOOLS_TOKEN, else
              ~/.mcpulse-devtools/token); the proxied session's content needs it
  --once      send the demo and exit (stopping the dashboard if this command started it)
  --fast      compress the slow tool and skip the pauses between steps (for tests)
`;

function describeResult(result: DemoResult, endpoint: string, io: CliIO): void {
  const d = result.delivery;
  io.stdout.write(
    `demo: ${result.sessions.length} sessions, ${result.calls} calls and ${result.startups} startups sent to ${endpoint}` +
      ` (${d.sent} payloads accepted in ${d.batches} requests, ${d.dropped} dropped)\n`,
  );
  for (const m of result.mismatches) io.stderr.write(`demo: unexpected: ${m}\n`);
  if (d.failedBatches > 0) {
    io.stderr.write(
      `demo: ${d.failedBatches} requests were refused or failed — see the ingest log at ${endpoint}\n`,
    );
  }
}

export const command: Command = {
  summary: 'run an instrumented demo MCP server and fill a dashboard with its telemetry',
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      url: { type: 'string' },
      db: { type: 'string' },
      key: { type: 'string' },
      once: { type: 'boolean' },
      fast: { type: 'boolean' },
      token: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    const url = parseServerUrl(values.url, io.env);
    if (values.key !== undefined && values.key.trim() === '')
      throw new UsageError('--key: an empty key turns producers off');

    const found = await findOrStartDashboard(
      url,
      values.db,
      io,
      'demo',
      clientToken(values.token, io.env),
    );
    if ('exit' in found) return found.exit;
    const { endpoint, served, token } = found;
    let result: DemoResult;
    try {
      result = await runDemo({
        endpoint,
        key: values.key ?? DEMO_KEY,
        fast: values.fast ?? false,
        log: (line) => io.stdout.write(`${line}\n`),
      });
      // One more session through the real proxy, so the first run also shows content.
      const proxied = await runProxiedDemo({ endpoint, fast: values.fast ?? false, token });
      io.stdout.write(
        `demo: 1 session through the proxy (${proxied.calls} calls, every message kept) in project ${PROXIED_DEMO_KEY}\n`,
      );
    } catch (error) {
      await served?.stop();
      throw error;
    }
    describeResult(result, endpoint, io);
    const failed = result.mismatches.length > 0 || result.delivery.dropped > 0;
    if (!served) {
      if (!failed) io.stdout.write(`open ${link(endpoint, token)} to explore it\n`);
      return failed ? 1 : 0;
    }
    if (values.once) {
      await served.stop();
      io.stdout.write(
        `demo: stopped the dashboard it started; to explore the data: ${prog()} serve --db ${shellWord(served.server.info.dbPath)}\n`,
      );
      return failed ? 1 : 0;
    }
    io.stdout.write(
      `\nopen ${link(endpoint, token)} to explore it — the dashboard keeps running; Ctrl-C to stop\n`,
    );
    await untilSignal();
    await served.stop();
    return failed ? 1 : 0;
  },
};
