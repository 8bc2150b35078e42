/**
 * `mcpulse-devtools replay SESSION -- COMMAND…`: a model's real session, recorded through the
 * proxy, becomes a regression test for the next build of the server. The session is read
 * from the database (or a running dashboard), COMMAND is started over stdio and initialized as
 * the captured client did, the tool calls are re-sent in order, and a table says what changed.
 */
import { callApi } from '../../api/call.js';
import { getRemote } from '../../api/remote.js';
import { DatabaseOpenError } from '../../host/open-db.js';
import { defaultDbPath } from '../../host/paths.js';
import { clientToken } from '../../host/token.js';
import type { ReadStore } from '../../store/index.js';
import { parseFlags } from '../flags.js';
import { UsageError, type Command } from '../io.js';
import { normalizeUrl } from './demo-probe.js';
import { openExisting } from './export-filters.js';
import { replaySession, ServerStartError } from './replay-run.js';
import { loadRecordedSession, ReplayError, type Ask } from './replay-source.js';
import { compareReplay, formatReplayTable } from './replay-table.js';
import { prog } from '../invocation.js';

const USAGE = `usage: ${prog()} replay SESSION [--db PATH | --url URL [--token VALUE]] [--project P] [--timeout MS] [--json] -- COMMAND [ARGS…]

Re-sends a proxied session's tool calls to a server and says what changed. COMMAND is started
over stdio and initialized as the recorded client did (its clientInfo, capabilities and
protocol version); each tool call is sent again, in order, with the arguments the proxy
captured. The table shows, per call, the outcome before → after, how the answer text changed
and the duration before → after.

  --db PATH      database to read the session from (default ~/.mcpulse-devtools/devtools.db,
                 or $MCPULSE_DEVTOOLS_DB)
  --url URL      read it from a running dashboard instead
  --token VALUE  its owner token (default $MCPULSE_DEVTOOLS_TOKEN, else ~/.mcpulse-devtools/token)
  --project P    the session's project (key, ref or id), when two projects share the id
  --timeout MS   per request, initialize included (default 60000)
  --json         the rows as JSON instead of a table

Exits 1 when any call's outcome got worse (ok → bad_args/tool_error → crashed), 0 otherwise,
2 when the session cannot be replayed (not found, recorded by an SDK — which sends no
arguments — or the server did not start).
`;

export const command: Command = {
  summary: 're-send a proxied session to a server build and show what changed',
  async run(argv, io) {
    const dashes = argv.indexOf('--');
    const own = dashes === -1 ? argv : argv.slice(0, dashes);
    const serverCommand = dashes === -1 ? [] : argv.slice(dashes + 1);
    const { values, positionals } = parseFlags(
      own,
      {
        db: { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        project: { type: 'string' },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      true,
    );
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError('expected exactly one SESSION id');
    if (serverCommand.length === 0)
      throw new UsageError(
        'give the server to replay against after --, e.g. -- node dist/index.js',
      );
    if (values.db !== undefined && values.url !== undefined)
      throw new UsageError('pass --db or --url, not both');
    const timeoutMs = values.timeout === undefined ? 60_000 : Number(values.timeout);
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
      throw new UsageError(
        `--timeout: expected milliseconds (a positive integer), received '${values.timeout}'`,
      );
    const session = positionals[0]!;

    let store: ReadStore | undefined;
    let ask: Ask;
    if (values.url !== undefined) {
      const url = normalizeUrl(values.url);
      const token = clientToken(values.token, io.env);
      ask = (name, params) =>
        getRemote(url, name, params, { signal: AbortSignal.timeout(30_000), token });
    } else {
      try {
        store = openExisting(values.db ?? defaultDbPath(io.env), (l) => io.stderr.write(l));
      } catch (error) {
        if (!(error instanceof DatabaseOpenError)) throw error;
        io.stderr.write(`mcpulse-devtools replay: ${error.message}\n`);
        return 2;
      }
      const opened = store;
      ask = (name, params) => callApi(opened, name, params);
    }
    try {
      const recorded = await loadRecordedSession(ask, session, values.project);
      store?.close();
      store = undefined;
      const results = await replaySession(recorded, {
        command: serverCommand[0]!,
        args: serverCommand.slice(1),
        timeoutMs,
        env: io.env,
      });
      const rows = compareReplay(recorded, results);
      io.stdout.write(
        values.json ? `${JSON.stringify({ session, rows }, null, 2)}\n` : formatReplayTable(rows),
      );
      return rows.some((r) => r.change === 'worse') ? 1 : 0;
    } catch (error) {
      if (error instanceof ReplayError || error instanceof ServerStartError) {
        io.stderr.write(`mcpulse-devtools replay: ${error.message}\n`);
        return 2;
      }
      // A dashboard or file that does not know the operation, or is not there: say so plainly.
      io.stderr.write(
        `mcpulse-devtools replay: could not read session '${session}': ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return 2;
    } finally {
      store?.close();
    }
  },
};
