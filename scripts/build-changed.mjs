#!/usr/bin/env node
/**
 * What `npm start` and `npm run demo` run before the app (issue 43): build only what changed.
 *
 * - The core (src/ → dist/) goes through `tsc -b`, which keeps its build info in
 *   dist/.tsbuildinfo (tsconfig.build.json): with nothing changed it answers in well under a
 *   second instead of type-checking everything again. The file lives inside dist/ on purpose:
 *   deleting dist/ deletes it too, so the next start rebuilds instead of trusting a stale record.
 * - The app (`electron-vite build`: the Electron main bundle and the renderer) is skipped when
 *   a SHA-256 of everything it reads matches the stamp its last build left in out/ (again
 *   inside the output, so deleting out/ forces a build).
 *
 * `npm run build` stays the full build that CI and `npm test` use; its core step ends with
 * `node scripts/build-changed.mjs --bins` (the bin left executable, as after every build here)
 * and its app step with `--stamp`, so a start after it skips electron-vite too.
 * Plain JavaScript: it runs before anything is compiled. Types: build-changed.d.mts.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Folders electron-vite reads: the main bundle starts at src/electron/main.ts and pulls in
 * src/**; the renderer is renderer/ plus what it imports from src/.
 */
export const APP_INPUT_DIRS = ['src', 'renderer'];

/**
 * Single files that change the app build: its config, the tsconfigs vite reads for each
 * module, the declared and the installed dependency versions (bundled React, recharts…).
 * Root `.env*` files count too (vite loads them); see {@link appInputFiles}.
 */
export const APP_INPUT_FILES = [
  'electron.vite.config.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.base.json',
  'node_modules/.package-lock.json',
];

/** Files a finished app build leaves; missing ones mean it must run again. */
export const APP_OUTPUTS = ['out/main/index.js', 'out/renderer/index.html'];

/** The hash of the app's inputs at its last successful build. */
export const APP_STAMP = 'out/.inputs-sha256';

/** tsc's record of the last core build (tsBuildInfoFile in tsconfig.build.json). */
export const CORE_BUILD_INFO = 'dist/.tsbuildinfo';

/** Every file under `dir` (relative to `root`, `/`-separated, sorted), node_modules skipped. */
function filesUnder(root, dir) {
  const found = [];
  const walk = (rel) => {
    let entries;
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      return; // a folder that does not exist reads as empty
    }
    for (const entry of entries) {
      if (entry.name === 'node_modules') continue;
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  walk(dir);
  return found.sort();
}

/** The app build's input files under `root` that exist, sorted, `/`-separated. */
export function appInputFiles(root) {
  const env = readdirSync(root).filter((name) => name.startsWith('.env'));
  const singles = [...APP_INPUT_FILES, ...env].filter((file) => existsSync(join(root, file)));
  return [...APP_INPUT_DIRS.flatMap((dir) => filesUnder(root, dir)), ...singles].sort();
}

/**
 * SHA-256 over every input's path and bytes: an edit, a new file, a deleted or renamed one
 * all change it. Contents rather than mtimes, so a `git checkout` back and forth is no change.
 */
export function appInputsHash(root) {
  const hash = createHash('sha256');
  for (const file of appInputFiles(root)) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, ...file.split('/'))));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** True when out/ holds a finished app build of exactly these inputs. */
export function appIsCurrent(root, hash = appInputsHash(root)) {
  if (!APP_OUTPUTS.every((file) => existsSync(join(root, file)))) return false;
  try {
    return readFileSync(join(root, APP_STAMP), 'utf8').trim() === hash;
  } catch {
    return false;
  }
}

/** Records `hash` as the inputs of the app build now in out/. */
export function writeAppStamp(root, hash = appInputsHash(root)) {
  writeFileSync(join(root, APP_STAMP), `${hash}\n`);
}

/**
 * Makes the package's `bin` files executable, as an install would. tsc writes them 0644, and
 * `npx mcpulse-devtools …` in the checkout runs the bin through a link npx made once: after a
 * fresh build it failed with "Permission denied" (issue 43).
 */
export function markBinsExecutable(root) {
  const { bin = {} } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const files = typeof bin === 'string' ? [bin] : Object.values(bin);
  for (const file of files) if (existsSync(join(root, file))) chmodSync(join(root, file), 0o755);
}

/** Runs a Node script in `root`, its output shown as it comes; resolves to its exit code. */
function runNode(root, script, args) {
  const result = spawnSync(process.execPath, [script, ...args], { cwd: root, stdio: 'inherit' });
  return result.status ?? 1;
}

/**
 * The two tools, resolved from the project's own node_modules and run with this Node (no
 * npx, no shell: each hop costs start-up time, and shims differ on Windows).
 */
function defaultTools(root) {
  const require = createRequire(join(root, 'package.json'));
  const electronVite = join(dirname(require.resolve('electron-vite/package.json')), 'bin');
  return {
    tscBuild: () =>
      runNode(root, require.resolve('typescript/bin/tsc'), ['-b', 'tsconfig.build.json']),
    appBuild: () => runNode(root, join(electronVite, 'electron-vite.js'), ['build']),
  };
}

/**
 * Builds what changed under `root`; resolves to an exit code (non-zero: a build failed, and
 * the stamp is left alone so the next start tries again).
 * @param {{ root: string, say?: (line: string) => void,
 *   tools?: { tscBuild: () => number, appBuild: () => number } }} options
 */
export function buildChanged({ root, say = (line) => process.stderr.write(`${line}\n`), tools }) {
  const { tscBuild, appBuild } = tools ?? defaultTools(root);
  const started = Date.now();
  const first = !existsSync(join(root, CORE_BUILD_INFO)) || !existsSync(join(root, APP_STAMP));
  if (first)
    say(
      'mcpulse: building the app (the first start takes about 30 s; later ones build only what changed)…',
    );
  const core = tscBuild();
  if (core !== 0) return core;
  markBinsExecutable(root);
  // Hashed before the build: an edit made while it runs must not be stamped as built.
  const hash = appInputsHash(root);
  if (appIsCurrent(root, hash)) {
    say(`mcpulse: up to date (checked in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return 0;
  }
  if (!first)
    say('mcpulse: the dashboard changed since its last build: building it (electron-vite)…');
  const app = appBuild();
  if (app !== 0) return app;
  writeAppStamp(root, hash);
  say(`mcpulse: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

/** The project this script belongs to (one folder above scripts/). */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const isEntry = (() => {
  try {
    return realpathSync(process.argv[1] ?? '') === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();

if (isEntry) {
  if (process.argv.includes('--stamp')) writeAppStamp(ROOT);
  // After `build:core`'s tsc, which writes the bin: each build step finishes its own output
  // (scripts/test-all.mjs runs the two at once).
  else if (process.argv.includes('--bins')) markBinsExecutable(ROOT);
  else process.exitCode = buildChanged({ root: ROOT });
}
