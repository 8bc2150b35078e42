/**
 * How this install's own CLI runs from any folder, so that every command the dashboard and the
 * CLI suggest can be copied and run where it is shown (issue 43): the package is not on the
 * registry and a clone puts nothing on PATH, so a bare `mcpulse-devtools demo` runs nowhere.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: dist/server/*.js and the Electron bundle out/main/index.js sit two below. */
const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The words in front of a command (`[node, /abs/dist/cli/main.js]`), or null where this
 * install has no runnable CLI (not built, or inside a packaged app's asar archive, which only
 * Electron can read). The Node is the one running now — the one better-sqlite3 was built
 * for — except under Electron, whose binary is no Node: there it is `node` from PATH.
 */
export function cliWords(
  root: string = PACKAGE_ROOT,
  runtime: { execPath: string; electron?: string } = {
    execPath: process.execPath,
    electron: process.versions.electron,
  },
): string[] | null {
  const main = join(root, 'dist', 'cli', 'main.js');
  if (/\.asar([\\/]|$)/.test(main) || !existsSync(main)) return null;
  return [runtime.electron ? 'node' : runtime.execPath, main];
}
