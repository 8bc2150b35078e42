#!/usr/bin/env node
/**
 * `mcpulse-devtools` — one entry, one map of commands, each loaded only when used so `hash`
 * never pays for SQLite and `serve` never pays for the MCP SDK.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { progFor, prog, setProg } from './invocation.js';
import { exitQuietlyOnClosedPipe, processIO, UsageError, type CliIO, type Command } from './io.js';

type Loader = () => Promise<{ command: Command }>;

/** Every command, by name. */
export const COMMANDS: Record<string, Loader> = {
  serve: () => import('./commands/serve.js'),
  start: () => import('./commands/start.js'),
  hash: () => import('./commands/hash.js'),
  conformance: () => import('./commands/conformance.js'),
  demo: () => import('./commands/demo.js'),
  tail: () => import('./commands/tail.js'),
  import: () => import('./commands/import.js'),
  export: () => import('./commands/export.js'),
  report: () => import('./commands/report.js'),
  mcp: () => import('./commands/mcp.js'),
  proxy: () => import('./commands/proxy.js'),
  replay: () => import('./commands/replay.js'),
  token: () => import('./commands/token.js'),
};

async function help(io: CliIO): Promise<void> {
  const lines = [`usage: ${prog()} <command> [options]`, '', 'commands:'];
  for (const [name, load] of Object.entries(COMMANDS)) {
    const { command } = await load();
    lines.push(`  ${name.padEnd(13)} ${command.summary}`);
  }
  lines.push('', `run '${prog()} <command> --help' for a command's options`);
  io.stdout.write(lines.join('\n') + '\n');
}

/** Runs the CLI with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    await help(io);
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    io.stderr.write(`mcpulse-devtools: unknown command '${name}' (try --help)\n`);
    return 2;
  }
  const { command } = await load();
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`mcpulse-devtools ${name}: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

/** True when this file is the process entry (also through npm's bin symlink). */
function isEntry(): boolean {
  try {
    return realpathSync(process.argv[1] ?? '') === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) {
  // Help and hints name the CLI as it was run here, so what they suggest runs as typed.
  setProg(progFor(process.argv[1]!, process.cwd()));
  // One place for every command: a reader that closed the pipe early (`| head -1`).
  exitQuietlyOnClosedPipe(process.stdout);
  exitQuietlyOnClosedPipe(process.stderr);
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `mcpulse-devtools: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exitCode = 1;
    },
  );
}
