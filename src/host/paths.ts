/**
 * Where things are by default, for every entry point (the CLI, the Electron shell): the headless
 * database file and the port.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PORT } from '../shared/defaults.js';

/** The headless default database: `~/.mcpulse-devtools/devtools.db` (or `$MCPULSE_DEVTOOLS_DB`). */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.MCPULSE_DEVTOOLS_DB || join(homedir(), '.mcpulse-devtools', 'devtools.db');
}

/** The default port: {@link DEFAULT_PORT}, or `$MCPULSE_DEVTOOLS_PORT`. */
export function defaultPort(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.MCPULSE_DEVTOOLS_PORT);
  return Number.isInteger(n) && n >= 0 && n < 65536 && env.MCPULSE_DEVTOOLS_PORT ? n : DEFAULT_PORT;
}
