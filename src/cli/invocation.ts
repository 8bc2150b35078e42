/**
 * The name the CLI gives itself in its help and hints: however the person at the terminal ran
 * it, so a suggested `… token` runs there as typed (issue 43). A clone has no `mcpulse-devtools`
 * on PATH: `npm start` runs `node dist/cli/main.js`, and `npx mcpulse-devtools` works only
 * inside the checkout.
 */
import { basename, isAbsolute, relative } from 'node:path';
import { shellWord } from '../shared/shell-word.js';

/** The installed name: through a bin link on PATH (`npm link`, a global install). */
export const BIN_NAME = 'mcpulse-devtools';

let current = BIN_NAME;

/** How to run this CLI again from the folder it was started in. */
export function prog(): string {
  return current;
}

/**
 * The prefix for `argv1` (the entry script's path as Node was given it: links unresolved) run
 * from `cwd`: `npx mcpulse-devtools` when it is a bin link in npx's cache (`…/_npx/…/.bin/`,
 * not on PATH; an environment variable would not do, since npx's children inherit it), the
 * bin name through any other link, else `node` and the script's path — relative when it is
 * under `cwd` (`node dist/cli/main.js` from the checkout, as `npm start` runs it).
 */
export function progFor(argv1: string, cwd: string): string {
  if (basename(argv1).replace(/\.(cmd|ps1)$/i, '') === BIN_NAME)
    return /[\\/]_npx[\\/]/.test(argv1) ? `npx ${BIN_NAME}` : BIN_NAME;
  const rel = relative(cwd, argv1);
  const path = rel.startsWith('..') || isAbsolute(rel) ? argv1 : rel;
  // From source (the tests, a developer without a build) Node needs tsx to read TypeScript.
  const node = argv1.endsWith('.ts') ? 'node --import tsx' : 'node';
  return `${node} ${shellWord(path.split('\\').join('/'))}`;
}

/** Set once by the entry, before any command's help is read; tests keep the bin name. */
export function setProg(value: string): void {
  current = value;
}
