import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { RETRY_WINDOW_MS } from '../../shared/metric-constants.js';
import { ERROR_OUTCOMES, OUTCOME_CLASSES } from '../../shared/outcomes.js';
import { AmbiguousProjectError, UnknownProjectError } from '../../store/index.js';
import { parseFlags } from '../flags.js';
import { UsageError, type CliIO, type Command } from '../io.js';
import { DatabaseOpenError, openDbForCli } from '../../host/open-db.js';
import { defaultDbPath } from '../../host/paths.js';
import { clientToken } from '../../host/token.js';
import { tokenHeaders } from '../../api/remote.js';
import { parseServerUrl } from './demo-probe.js';
import { followStream, StreamRefusedError, type SseEvent } from './tail-sse.js';
import {
  formatJson,
  formatLine,
  HEADER,
  outcomeLabel,
  RetryMarker,
  type TailCall,
} from './tail-format.js';
import { prog } from '../invocation.js';

const USAGE = `usage: ${prog()} tail [--url URL] [filters] [--json] [--last N] [--db PATH] [--count N] [--token VALUE]

Follows the live stream of a running dashboard: one line per tool call — time, session,
client, tool, outcome, duration, response size, args_hash and a mark when the call is a
retry (↻, different arguments within 30 s of the previous call of that tool in the session),
a repeat (=, same arguments) or cannot be compared (?, unhashable arguments). Reconnects
when the dashboard restarts.

  --url URL          dashboard to follow (default http://localhost:7857, or $MCPULSE_DEVTOOLS_PORT)
  --token VALUE      its owner token (default $MCPULSE_DEVTOOLS_TOKEN, else ~/.mcpulse-devtools/token)
  --project P        only this project: its ref (from /api/projects), the key, or a key
                     prefix only one project has
  --tool NAME        only this tool
  --session ID       only this session (a prefix is enough)
  --client NAME      only this client
  --outcome LIST     only these outcomes, comma-separated: ok, empty, bad_args, tool_error,
                     crashed, or error (= bad_args, tool_error and crashed)
  --rejections       also show items the ingest endpoint dropped, with the reason
  --json             one JSON object per line instead of text
  --last N           first print the last N matching calls from the database
  --db PATH          database --last reads (default ~/.mcpulse-devtools/devtools.db, or
                     $MCPULSE_DEVTOOLS_DB) — use the one the dashboard serves
  --count N          exit after printing N calls (for scripts and tests)
`;

const OUTCOMES: readonly string[] = OUTCOME_CLASSES;

function parseOutcomes(value: string | undefined): Set<string> | null {
  if (value === undefined) return null;
  const out = new Set<string>();
  for (const part of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (part === 'error') ERROR_OUTCOMES.forEach((o) => out.add(o));
    else if (OUTCOMES.includes(part)) out.add(part);
    else
      throw new UsageError(
        `--outcome: expected ${OUTCOMES.join(', ')} or error, received '${part}'`,
      );
  }
  return out;
}

function parseCount(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`${name}: expected a non-negative integer, received '${value}'`);
  return n;
}

interface Filters {
  project?: string;
  tool?: string;
  session?: string;
  client?: string;
  outcomes: Set<string> | null;
}

const matches = (c: TailCall, f: Filters): boolean =>
  (f.tool === undefined || c.tool_name === f.tool) &&
  (f.session === undefined || c.session_id.startsWith(f.session)) &&
  (f.client === undefined || c.client_name === f.client) &&
  (f.outcomes === null || f.outcomes.has(outcomeLabel(c)));

/**
 * The last `n` matching calls from the database, oldest first, plus the calls of the 30 s
 * before them — context, so the first backlog lines get their retry marks right too.
 */
function backlog(
  dbPath: string,
  n: number,
  f: Filters,
  io: CliIO,
): { context: TailCall[]; rows: TailCall[] } {
  if (n === 0) return { context: [], rows: [] };
  if (!existsSync(dbPath)) {
    io.stderr.write(`tail: no database at ${dbPath} yet — nothing to show for --last\n`);
    return { context: [], rows: [] };
  }
  const store = openDbForCli(dbPath, { readonly: true });
  try {
    let projectId: number | undefined;
    try {
      projectId = f.project === undefined ? undefined : store.read.resolveProject(f.project);
    } catch (error) {
      if (error instanceof AmbiguousProjectError || error instanceof UnknownProjectError)
        throw new UsageError(`--${error.message}`);
      throw error;
    }
    // The session filter is a prefix, so it is applied here rather than in SQL.
    const rows = store.read
      .calls(
        { projectId, tool: f.tool, client: f.client },
        { order: 'desc', limit: f.session === undefined && f.outcomes === null ? n : 10_000 },
      )
      .filter((c) => matches(c, f))
      .slice(0, n)
      .reverse();
    const first = rows[0];
    if (!first) return { context: [], rows };
    const shown = new Set(rows.map((r) => r.id));
    // Not narrowed by client: the previous call of a tool may come from another client of
    // the same session.
    const context = store.read
      .calls(
        {
          projectId,
          tool: f.tool,
          from: first.started_ms - RETRY_WINDOW_MS,
          to: first.started_ms + 1,
        },
        { limit: 10_000 },
      )
      .filter((c) => !shown.has(c.id));
    return { context, rows };
  } finally {
    store.close();
  }
}

export const command: Command = {
  summary: 'follow the live stream of tool calls in the terminal',
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      url: { type: 'string' },
      db: { type: 'string' },
      project: { type: 'string' },
      tool: { type: 'string' },
      session: { type: 'string' },
      client: { type: 'string' },
      outcome: { type: 'string' },
      rejections: { type: 'boolean' },
      json: { type: 'boolean' },
      last: { type: 'string' },
      count: { type: 'string' },
      token: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    const url = parseServerUrl(values.url, io.env);
    const token = clientToken(values.token, io.env);
    const filters: Filters = {
      project: values.project,
      tool: values.tool,
      session: values.session,
      client: values.client,
      outcomes: parseOutcomes(values.outcome),
    };
    const last = parseCount('--last', values.last) ?? 0;
    const count = parseCount('--count', values.count);
    const json = values.json ?? false;
    const color = !json && (io.stdout as { isTTY?: boolean }).isTTY === true && !io.env.NO_COLOR;
    const dbPath = resolve(values.db ?? defaultDbPath(io.env));

    const marker = new RetryMarker();
    const controller = new AbortController();
    let printed = 0;
    const print = (call: TailCall): void => {
      if (controller.signal.aborted) return;
      const marked = marker.mark(call);
      if (!matches(call, filters)) return;
      io.stdout.write(`${json ? formatJson(marked) : formatLine(marked, color)}\n`);
      printed++;
      if (count !== undefined && printed >= count) controller.abort();
    };

    if (!json) io.stdout.write(`${HEADER}\n`);
    try {
      const { context, rows } = backlog(dbPath, last, filters, io);
      for (const call of context) marker.mark(call);
      for (const call of rows) print(call);
    } catch (error) {
      if (error instanceof DatabaseOpenError) {
        io.stderr.write(`tail: ${error.message}\n`);
        return 1;
      }
      throw error;
    }
    if (count !== undefined && printed >= count) return 0;

    const onEvent = (e: SseEvent): void => {
      try {
        if (e.event === 'call') print(JSON.parse(e.data) as TailCall);
        else if (
          e.event === 'rejection' &&
          values.rejections &&
          !filters.tool &&
          !filters.session &&
          !filters.client
        ) {
          const r = JSON.parse(e.data) as {
            reason: string;
            key_prefix: string | null;
            item: string;
          };
          io.stdout.write(
            json
              ? `${JSON.stringify({ rejection: r })}\n`
              : `rejected  ${r.reason}  (key ${r.key_prefix ?? 'none'})  ${r.item.slice(0, 120)}\n`,
          );
        } else if (e.event === 'cleared' && !json) io.stdout.write('— all data was cleared —\n');
        else if (e.event === 'retention' && !json) {
          const r = JSON.parse(e.data) as { calls: number };
          io.stdout.write(`— retention deleted ${r.calls.toLocaleString('en-US')} old calls —\n`);
        }
      } catch {
        // A malformed event is skipped; the next one may be fine.
      }
    };
    const stop = (): void => controller.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const streamUrl = `${url}/api/stream${filters.project ? `?project=${encodeURIComponent(filters.project)}` : ''}`;
    let waitingShown = false;
    try {
      await followStream({
        url: streamUrl,
        headers: tokenHeaders(token),
        signal: controller.signal,
        onEvent,
        onStatus: (s) => {
          if (s.kind === 'connected') {
            io.stderr.write(
              s.attempt === 1 ? `tail: following ${url}\n` : `tail: connected to ${url}\n`,
            );
            waitingShown = false;
          } else if (s.kind === 'lost') io.stderr.write('tail: connection lost — reconnecting…\n');
          else if (!waitingShown) {
            io.stderr.write(
              `tail: no dashboard answers at ${url} (${s.detail}) — waiting for one (Ctrl-C to stop)\n`,
            );
            waitingShown = true;
          }
        },
      });
    } catch (error) {
      if (!(error instanceof StreamRefusedError)) throw error;
      io.stderr.write(`tail: ${error.message}\n`);
      return 2;
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
    return 0;
  },
};
