import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';
import { createDataServer } from '../../mcp/server.js';
import { VERSION } from '../../server/version.js';
import type { ReadStore } from '../../store/index.js';
import { parseFlags } from '../flags.js';
import type { Command } from '../io.js';
import { defaultDbPath } from '../../host/paths.js';
import { openExisting } from './export-filters.js';
import { BIN_NAME, prog } from '../invocation.js';
import { cliWords } from '../../server/cli-words.js';
import { shellWord } from '../../shared/shell-word.js';

/** The two usual ways to register this server, naming this install's CLI by full paths. */
function registerExamples(): string {
  const words = cliWords() ?? [BIN_NAME];
  const server = { command: words[0], args: [...words.slice(1), 'mcp'] };
  return [
    `  claude mcp add mcpulse -- ${[...words, 'mcp'].map(shellWord).join(' ')}`,
    `  ${JSON.stringify({ mcpServers: { mcpulse: server } })}`,
  ].join('\n');
}

const USAGE = `usage: ${prog()} mcp [--db PATH]

An MCP server over stdio that answers questions about the recorded telemetry, for the coding
assistant helping you build your MCP server. Tools: list_sessions, session_calls (default:
the latest session), tool_health, retry_chains, rejected_items, hash_arguments. Read-only;
works while the dashboard is running.

  --db PATH   database (default ~/.mcpulse-devtools/devtools.db, or $MCPULSE_DEVTOOLS_DB)

Register it with your assistant, for example (by full paths: the assistant starts it from
its own folder, where a clone's CLI is not on PATH):
${registerExamples()}
`;

export const command: Command = {
  summary: 'serve the telemetry to a coding assistant as an MCP server over stdio',
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      db: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    const dbPath = values.db ?? defaultDbPath(io.env);
    // Opened on the first question, not at start-up: the assistant may start this before the
    // dashboard has ever created the file, and a missing file is an answer, not a crash.
    let store: ReadStore | undefined;
    const stores = (): ReadStore => (store ??= openExisting(dbPath, (l) => io.stderr.write(l)));
    const server = createDataServer(stores, VERSION);
    const transport = new StdioServerTransport(io.stdin as Readable, io.stdout as Writable);
    // stdout is the protocol: anything else goes to stderr.
    io.stderr.write(`mcpulse-devtools mcp: serving ${dbPath} over stdio\n`);
    await server.connect(transport);
    await new Promise<void>((resolve) => {
      io.stdin.once('end', resolve);
      io.stdin.once('close', resolve);
      process.once('SIGTERM', resolve);
      process.once('SIGINT', resolve);
    });
    await server.close();
    store?.close();
    return 0;
  },
};
