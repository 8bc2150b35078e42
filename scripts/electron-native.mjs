#!/usr/bin/env node
// @ts-check
/**
 * The install step that gives Electron its own SQLite. npm builds (or fetches) better-sqlite3
 * for the system Node, which the CLI needs; Electron's Node has another NODE_MODULE_VERSION and
 * cannot load that build. This puts a second build, for the Electron that is installed, beside
 * the first — `node_modules/better-sqlite3/build/electron-v<abi>-<platform>-<arch>/` — where
 * the main process finds it (src/electron/native-binding.ts; better-sqlite3's `nativeBinding`
 * option). The Node build is never touched.
 *
 * How: `prebuild-install --runtime electron` in a scratch copy of better-sqlite3 (a download),
 * else (when run by hand, not as postinstall, since compiling takes minutes) `@electron/rebuild`
 * of a scratch copy (a compile, which needs a C++ toolchain and Electron's headers).
 * Where there is no Electron binary (CI, a machine that could not download it) it skips with
 * one line. As `postinstall` it never fails the install: `npm start` explains a missing build
 * and serves headless. Plain JavaScript, so it runs before anything is built.
 *
 * The Electron binary itself: electron's own postinstall (a download from GitHub, which fails
 * the whole `npm install` where GitHub is out of reach) is denied in package.json's
 * `allowScripts`; this step runs that same `install.js` instead, leniently — a failed
 * download is one line, not a failed install. `ELECTRON_SKIP_BINARY_DOWNLOAD=1` skips it.
 *
 *   node scripts/electron-native.mjs [--root DIR] [--dry-run] [--force] [--postinstall]
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PREFIX = 'electron-native:';
/** How long one probe or fetch may take before it counts as failed. */
const PROBE_TIMEOUT_MS = 20_000;
const FETCH_TIMEOUT_MS = 180_000;
/** The Electron download is ~100 MB. */
const DOWNLOAD_TIMEOUT_MS = 600_000;

/**
 * The Electron binary to build for: `$MCPULSE_ELECTRON` (a system Electron), else the one the
 * electron package downloaded under `root`.
 * @param {string} root
 * @param {NodeJS.ProcessEnv} env
 * @returns {{ binary: string } | { missing: string }}
 */
export function findElectronForInstall(root, env) {
  if (env.MCPULSE_ELECTRON)
    return existsSync(env.MCPULSE_ELECTRON)
      ? { binary: resolve(env.MCPULSE_ELECTRON) }
      : { missing: `no Electron binary at ${env.MCPULSE_ELECTRON} (from MCPULSE_ELECTRON)` };
  const pkgDir = join(root, 'node_modules', 'electron');
  if (!existsSync(pkgDir)) return { missing: 'the electron package is not installed' };
  const pathFile = join(pkgDir, 'path.txt');
  if (!existsSync(pathFile)) return { missing: 'the Electron binary was never downloaded' };
  const binary = join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { binary } : { missing: `no Electron binary at ${binary}` };
}

/**
 * Downloads the Electron binary by running the electron package's own `install.js` (the
 * postinstall package.json denies it, so that a failed download cannot fail `npm install`).
 * Nothing to do with `$MCPULSE_ELECTRON`, without the package (or its install.js), or when the
 * binary is already there.
 * @param {string} root
 * @param {NodeJS.ProcessEnv} env
 * @returns {{ downloaded: true } | { failed: string } | null}
 */
export function downloadElectron(root, env) {
  if (env.MCPULSE_ELECTRON) return null;
  const pkgDir = join(root, 'node_modules', 'electron');
  const install = join(pkgDir, 'install.js');
  if (!existsSync(install)) return null;
  if ('binary' in findElectronForInstall(root, env)) return null;
  try {
    execFileSync(process.execPath, [install], {
      cwd: pkgDir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: DOWNLOAD_TIMEOUT_MS,
    });
  } catch (error) {
    const e = /** @type {{ stderr?: Buffer, message?: string }} */ (error);
    // install.js prints the error's stack: its first line says what went wrong.
    const first = (e.stderr?.toString() ?? '').split('\n').find((l) => l.trim() !== '');
    return { failed: first?.trim() || e.message || String(error) };
  }
  return 'binary' in findElectronForInstall(root, env) ? { downloaded: true } : null;
}

/** @typedef {{ electron: string, modules: string, platform: string, arch: string }} ElectronVersions */

/**
 * Asks the binary itself what it is: as plain Node (`ELECTRON_RUN_AS_NODE`), so no display is
 * needed and a system Electron answers as truthfully as the downloaded one.
 * @param {string} binary
 * @returns {ElectronVersions}
 */
export function probeElectron(binary) {
  const script =
    'console.log(JSON.stringify({electron:process.versions.electron,modules:process.versions.modules,platform:process.platform,arch:process.arch}))';
  const out = execFileSync(binary, ['-e', script], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const line = out.trim().split('\n').pop() ?? '';
  const v = JSON.parse(line);
  for (const key of ['electron', 'modules', 'platform', 'arch'])
    if (typeof v[key] !== 'string' || v[key] === '')
      throw new Error(`${binary} did not report process.versions.${key}`);
  return v;
}

/**
 * What to build for these versions: the folder the main process looks in (the same name as
 * `electronBuildFolder` in src/electron/native-binding.ts) and prebuild-install's arguments.
 * @param {ElectronVersions} v
 */
export function nativeTarget(v) {
  return {
    folder: `electron-v${v.modules}-${v.platform}-${v.arch}`,
    prebuildArgs: [
      '--runtime',
      'electron',
      '--target',
      v.electron,
      '--arch',
      v.arch,
      '--platform',
      v.platform,
    ],
    rebuildArgs: ['--version', v.electron, '--arch', v.arch, '--only', 'better-sqlite3', '--force'],
  };
}

/**
 * Downloads the prebuilt addon for Electron into a scratch folder holding only better-sqlite3's
 * package.json (prebuild-install reads the name, version and host from it and writes
 * build/Release there, not over the Node build). Returns the file it fetched.
 * @param {string} root @param {string} sqliteDir @param {string[]} args @param {string} scratch
 */
function fetchPrebuilt(root, sqliteDir, args, scratch) {
  const dir = join(scratch, 'prebuilt');
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(sqliteDir, 'package.json'), join(dir, 'package.json'));
  const bin = join(root, 'node_modules', 'prebuild-install', 'bin.js');
  execFileSync(process.execPath, [bin, ...args], {
    cwd: dir,
    stdio: 'pipe',
    timeout: FETCH_TIMEOUT_MS,
  });
  return join(dir, 'build', 'Release', 'better_sqlite3.node');
}

/**
 * Compiles a scratch copy of better-sqlite3 for Electron with @electron/rebuild (needs a C++
 * toolchain and Electron's headers, which it downloads). Returns the file it built.
 * @param {string} root @param {string} sqliteDir @param {string[]} args @param {string} scratch
 */
function rebuildCopy(root, sqliteDir, args, scratch) {
  const app = join(scratch, 'app');
  const copy = join(app, 'node_modules', 'better-sqlite3');
  cpSync(sqliteDir, copy, {
    recursive: true,
    filter: (src) => !src.startsWith(join(sqliteDir, 'build')),
  });
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'scratch', dependencies: { 'better-sqlite3': '*' } }),
  );
  const cli = join(root, 'node_modules', '@electron', 'rebuild', 'lib', 'cli.js');
  execFileSync(process.execPath, [cli, ...args, '--module-dir', app], {
    stdio: 'pipe',
    timeout: FETCH_TIMEOUT_MS,
  });
  return join(copy, 'build', 'Release', 'better_sqlite3.node');
}

/**
 * Loads the new addon in the Electron binary (as Node, same ABI as its main process) and opens
 * an in-memory database, so a build that would not load is never put in place.
 * @param {string} binary @param {string} sqliteDir @param {string} addon
 */
function verifyInElectron(binary, sqliteDir, addon) {
  const script = `const D=require(${JSON.stringify(sqliteDir)});new D(':memory:',{nativeBinding:${JSON.stringify(addon)}}).close()`;
  execFileSync(binary, ['-e', script], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: 'pipe',
    timeout: PROBE_TIMEOUT_MS,
  });
}

/** @param {unknown} error */
const oneLine = (error) => {
  const e = /** @type {{ stderr?: Buffer, message?: string }} */ (error);
  const text = (e.stderr?.toString().trim() || e.message || String(error)).split('\n');
  return text[text.length - 1]?.trim() ?? '';
};

/**
 * @param {string[]} argv
 * @param {NodeJS.ProcessEnv} env
 * @param {(line: string) => void} say
 * @returns {number} the exit code
 */
export function run(argv, env, say) {
  const flag = (/** @type {string} */ name) => argv.includes(name);
  const rootAt = argv.indexOf('--root');
  const root = resolve(
    rootAt >= 0 ? (argv[rootAt + 1] ?? '.') : join(dirname(fileURLToPath(import.meta.url)), '..'),
  );
  const lenient = flag('--postinstall');
  const download = flag('--dry-run') ? null : downloadElectron(root, env);
  if (download && 'downloaded' in download) say(`${PREFIX} downloaded the Electron binary`);
  const found = findElectronForInstall(root, env);
  if ('missing' in found) {
    const why =
      download && 'failed' in download
        ? `the Electron binary could not be downloaded (${download.failed})`
        : found.missing;
    say(
      `${PREFIX} skipped — ${why}; the CLI is unaffected, and npm start serves the dashboard headless`,
    );
    return 0;
  }
  let versions;
  try {
    versions = probeElectron(found.binary);
  } catch (error) {
    say(`${PREFIX} skipped — ${found.binary} would not report its version (${oneLine(error)})`);
    return lenient ? 0 : 1;
  }
  const target = nativeTarget(versions);
  const sqliteDir = join(root, 'node_modules', 'better-sqlite3');
  const dest = join(sqliteDir, 'build', target.folder, 'better_sqlite3.node');
  const what = `SQLite for Electron ${versions.electron} (ABI ${versions.modules}, ${versions.platform}-${versions.arch})`;
  if (existsSync(dest) && !flag('--force')) {
    say(`${PREFIX} ${what} is already at ${dest}`);
    return 0;
  }
  if (flag('--dry-run')) {
    say(
      `${PREFIX} would put ${what} at ${dest} (prebuild-install ${target.prebuildArgs.join(' ')}, else @electron/rebuild)`,
    );
    return 0;
  }
  const result = installElectronBuild({
    root,
    versions,
    dest,
    verifyWith: found.binary,
    // Compiling takes minutes: worth it when asked for, not inside every `npm ci`.
    allowCompile: !lenient,
  });
  if ('how' in result) {
    say(`${PREFIX} put ${what} at ${dest} (${result.how})`);
    return 0;
  }
  say(
    `${PREFIX} could not get ${what} (${result.failed}); npm start will say so and serve headless — retry with npm run electron:native`,
  );
  return lenient ? 0 : 1;
}

/**
 * Fetches (else, if allowed, compiles) better-sqlite3 for `versions` and copies it to `dest`,
 * after loading it in `verifyWith` (an Electron binary of the same platform and arch) when
 * there is one. Used by this script and by the packaging hook (scripts/after-pack.mjs).
 * @param {{ root: string, versions: ElectronVersions, dest: string, verifyWith?: string, allowCompile: boolean }} options
 * @returns {{ how: string } | { failed: string }}
 */
export function installElectronBuild({ root, versions, dest, verifyWith, allowCompile }) {
  const target = nativeTarget(versions);
  const sqliteDir = join(root, 'node_modules', 'better-sqlite3');
  const scratch = mkdtempSync(join(tmpdir(), 'mcpulse-electron-native-'));
  const failures = [];
  try {
    /** @type {Array<[string, () => string]>} */
    const attempts = [
      ['prebuild-install', () => fetchPrebuilt(root, sqliteDir, target.prebuildArgs, scratch)],
    ];
    if (allowCompile)
      attempts.push([
        '@electron/rebuild',
        () => rebuildCopy(root, sqliteDir, target.rebuildArgs, scratch),
      ]);
    for (const [how, attempt] of attempts) {
      try {
        const built = attempt();
        if (verifyWith) verifyInElectron(verifyWith, sqliteDir, built);
        mkdirSync(dirname(dest), { recursive: true });
        copyFileSync(built, dest);
        return { how };
      } catch (error) {
        failures.push(`${how}: ${oneLine(error)}`);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return { failed: failures.join('; ') };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.exitCode = run(process.argv.slice(2), process.env, (line) => console.log(line));
