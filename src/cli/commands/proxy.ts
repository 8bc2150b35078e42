import { constants } from 'node:os';
import { newSessionId } from '../../producer/measure.js';
import {
  dropLine,
  startHttpRelay,
  startStdioRelay,
  TelemetrySink,
  TelemetryThread,
  TrafficObserver,
  unobservedLine,
  type SinkReport,
} from '../../proxy/index.js';
import { Redactor } from '../../proxy/content.js';
import { chooseKey } from '../../proxy/project-key.js';
import { connectDashboard, LABEL } from './proxy-dashboard.js';
import { clientToken, TokenFileError } from '../../host/token.js';
import type { CliIO, Command } from '../io.js';
import { parseProxyArgs, type ProxyRun } from './proxy-args.js';
import type { Served } from './serve.js';
import { prog } from '../invocation.js';

const USAGE = `usage: ${prog()} proxy [--url URL] [--key KEY] [--client NAME] [--db PATH] [--token VALUE] -- COMMAND [ARGS…]
       ${prog()} proxy --http --target URL --listen PORT [--url URL] [--key KEY] [--client NAME]

Sits between an MCP client and an MCP server, relays every byte unchanged, and sends the
telemetry an MCPulse SDK would (startups, calls, outcomes) to the dashboard at --url — no SDK
needed. stdio: put it in front of the server command in your client's config; it starts the
server and is the server as far as the client can tell. --http: relays Streamable HTTP
(SSE streamed through as it arrives) from 127.0.0.1:PORT to the server at --target.

  --url URL      dashboard to send to (default http://localhost:7857, or $MCPULSE_DEVTOOLS_PORT);
                 if none answers there, one is started and runs as long as this proxy
  --key KEY      ingest key; one key is one server's project (default px_<the server's
                 serverInfo.name>, else px_<script's package or command>, or px_<target host>;
                 said on stderr once)
  --no-content   do not capture message bodies (session info and unanswered requests still go)
  --redact RULE  redact more, beside the built-in rules (repeatable): key names
                 (--redact session_pin,ssn) or a pattern (--redact '/ord-(?<secret>\\d{6})/i';
                 a group named secret redacts only that part)
  --redact-keys a,b
                 key names only (an alias of --redact a,b)
  --client NAME  client name to record, instead of the one the client sends in initialize
  --db PATH      database of the dashboard this command starts, if it starts one
  --token VALUE  the dashboard's owner token, which content needs (default $MCPULSE_DEVTOOLS_TOKEN,
                 else ~/.mcpulse-devtools/token)
  --http         Streamable HTTP mode (needs --target and --listen)
  --target URL   the server's MCP endpoint, e.g. http://localhost:3000/mcp
  --listen PORT  local port for the client to connect to (0 picks one)

Every JSON-RPC message is kept with the session on this machine, its credentials redacted
before it leaves the proxy and again before the dashboard stores it: string values under
secret-looking keys (authorization, password, token, secret, api_key, cookie, credential, …) and
secret formats anywhere (secretlint's recommended preset, plus OpenAI keys, JWTs, Bearer
credentials, user:password@ in URLs, access_token=/api_key=… parameters), each replaced by a
marker such as [redacted: github-token]; bodies over 256 KB are cut after redaction. The
dashboard also applies the rules saved in Settings → Redaction. Telemetry never affects the MCP
session: if the dashboard is down or slow, the traffic goes through as before, and what it did
not take by exit is handed to a background sender (one line on stderr says so). See
docs/proxy.md.
`;

/**
 * The owner token content is sent with. A token file that cannot be trusted is said once and
 * not used: the MCP session goes on whatever telemetry can do (calls still reach ingest).
 */
function proxyToken(args: ProxyRun, io: CliIO): string | undefined {
  try {
    return clientToken(args.token, io.env);
  } catch (error) {
    if (!(error instanceof TokenFileError)) throw error;
    io.stderr.write(`${LABEL}: ${error.message}; message content will not be stored\n`);
    return undefined;
  }
}

/** Exit code for how the server ended: its own code, or 128 + the signal's number. */
function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return signal ? 128 + (constants.signals[signal] ?? 0) : 1;
}

/** Stops the telemetry side: the drop line if anything was lost, then the dashboard. */
async function finish(report: SinkReport, io: CliIO, served?: Promise<Served | undefined>) {
  const line = dropLine(report);
  if (line) io.stderr.write(line);
  else if (report.reason && report.added.calls + report.added.startups === 0)
    // The telemetry thread itself failed: what it had is unknown, so say that much.
    io.stderr.write(
      `${LABEL}: telemetry was lost (${report.reason}); the MCP session itself was not affected\n`,
    );
  await (await served)?.stop();
}

async function runStdio(args: ProxyRun, io: CliIO): Promise<number> {
  // Finding the dashboard, observing, measuring and sending all run on their own thread,
  // never on the relay's.
  const telemetry = new TelemetryThread(new URL('./proxy-telemetry.js', import.meta.url), {
    sessionId: newSessionId(),
    transport: 'stdio',
    clientName: args.client,
    key: args.key,
    fallbackKey: args.fallbackKey,
    content: args.content,
    redact: args.redact,
    url: args.url,
    db: args.db,
    token: proxyToken(args, io),
  });
  // The relay starts first: a client sends initialize the moment it has spawned us.
  const relay = startStdioRelay({
    command: args.command,
    args: args.args,
    stdin: io.stdin,
    stdout: io.stdout,
    stderr: io.stderr,
    tap: telemetry,
  });
  // Signals meant for the server (a client stopping it) go to the server; the proxy follows it.
  const forward = (signal: NodeJS.Signals) => () => relay.child.kill(signal);
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((s) => [s, forward(s)] as const);
  for (const [s, h] of handlers) process.on(s, h);
  const end = await relay.done;
  for (const [s, h] of handlers) process.off(s, h);
  // Let go of the client's stdin so the process can exit once telemetry is flushed.
  (io.stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  if (end.spawnError)
    io.stderr.write(`${LABEL}: cannot start '${args.command}': ${end.spawnError}\n`);
  // A client that stops waiting for our exit signals us (the TypeScript SDK: SIGTERM 2 s after
  // closing stdin): the flush stops there and the drop line still says what was not sent.
  const stopNow = (signal: NodeJS.Signals) =>
    telemetry.stopNow(`the client stopped the proxy (${signal}) before the dashboard took them`);
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, stopNow);
  const result = await telemetry.close();
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(s, stopNow);
  const skipped = unobservedLine(result);
  if (skipped) io.stderr.write(skipped);
  await finish(result.report, io);
  return end.spawnError ? 127 : exitCodeOf(end.code, end.signal);
}

async function runHttp(args: ProxyRun, io: CliIO): Promise<number> {
  const sink = new TelemetrySink({ key: args.key, fallbackKey: args.fallbackKey, url: args.url });
  const observer = new TrafficObserver({
    // One MCPulse session per MCP session (Mcp-Session-Id) and per stateless exchange.
    sessionId: newSessionId,
    transport: 'http',
    content: sink,
    redactor: new Redactor(args.redact),
    bodies: args.content,
    onServerName: (name) => chooseKey(args, sink, name, io.stderr),
    // A payload is emitted as its exchange ends: traffic, so the sink waits for a pause.
    emit: (p, at) => {
      sink.traffic();
      sink.add(p, at);
    },
    clientName: args.client,
  });
  let relay;
  try {
    relay = await startHttpRelay({ target: args.target!, port: args.listen, observer });
  } catch (error) {
    io.stderr.write(
      `${LABEL}: cannot listen on port ${args.listen}: ${(error as Error).message}\n`,
    );
    return 1;
  }
  const served = connectDashboard(
    { url: args.url, db: args.db, token: proxyToken(args, io), env: io.env, stderr: io.stderr },
    sink,
  );
  io.stderr.write(`${LABEL}: relaying ${relay.url} → ${args.target!.href}\n`);
  await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  await relay.close();
  // The proxy was asked to stop, the server did not die: open requests are unanswered.
  observer.abandonAll(undefined, true);
  if (!args.key) chooseKey(args, sink, null, io.stderr);
  await observer.settled();
  await finish(await sink.close(), io, served);
  return 0;
}

export const command: Command = {
  summary: 'relay an MCP server (stdio or HTTP) and record its calls — no SDK needed',
  async run(argv, io) {
    const args = parseProxyArgs(argv, io.env);
    if (args.mode === 'help') {
      io.stdout.write(USAGE);
      return 0;
    }
    return args.mode === 'stdio' ? runStdio(args, io) : runHttp(args, io);
  },
};
