import { homedir } from 'node:os';
import { join } from 'node:path';

/** The headless default database: `~/.mcpulse-devtools/devtools.db` (or `$MCPULSE_DEVTOOLS_DB`). */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.MCPULSE_DEVTOOLS_DB || join(homedir(), '.mcpulse-devtools', 'devtools.db');
}

/** The default port: 7857, or `$MCPULSE_DEVTOOLS_PORT`. */
export function defaultPort(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.MCPULSE_DEVTOOLS_PORT);
  return Number.isInteger(n) && n >= 0 && n < 65536 && env.MCPULSE_DEVTOOLS_PORT ? n : 7857;
}
