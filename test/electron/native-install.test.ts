/**
 * The install step (scripts/electron-native.mjs) where it can be tested without downloading
 * Electron: it skips in one line with no binary, asks the binary (a fake here) what it is and
 * picks the matching target — the same folder the main process looks in — and leaves a build
 * already in place alone.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  findElectronForInstall,
  nativeTarget,
  probeElectron,
} from '../../scripts/electron-native.mjs';
import { packagedPlan, type PackContext } from '../../scripts/after-pack.mjs';
import { electronBuildFolder, nativeBindingPath } from '../../src/electron/native-binding.js';

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'electron-native.mjs');
const dir = mkdtempSync(join(tmpdir(), 'mcpulse-native-install-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const versions = { electron: '45.5.0', modules: '140', platform: 'linux', arch: 'x64' };

/** A fake Electron that, run as Node, answers the probe as Electron 45 would. */
function fakeElectron(answer: string): string {
  const path = join(dir, `electron-${Math.random().toString(36).slice(2)}`);
  writeFileSync(
    path,
    `#!/usr/bin/env node
if (process.env.ELECTRON_RUN_AS_NODE !== '1') process.exit(9);
console.log(${JSON.stringify(answer)});
`,
  );
  chmodSync(path, 0o755);
  return path;
}

/** Runs the script as npm would, from a clean environment plus `env`. */
function runScript(args: string[], env: NodeJS.ProcessEnv = {}) {
  const { MCPULSE_ELECTRON: _ignored, ...base } = process.env;
  const r = spawnSync(process.execPath, [SCRIPT, ...args], {
    env: { ...base, ...env },
    encoding: 'utf8',
  });
  return { code: r.status, lines: r.stdout.split('\n').filter(Boolean), stderr: r.stderr };
}

describe('install step: the target', () => {
  it('is the folder the main process looks in, and prebuild-install is asked for Electron', () => {
    const target = nativeTarget(versions);
    expect(target.folder).toBe('electron-v140-linux-x64');
    expect(target.folder).toBe(electronBuildFolder({ abi: '140', platform: 'linux', arch: 'x64' }));
    expect(
      nativeBindingPath('/m/better-sqlite3', { abi: '140', platform: 'linux', arch: 'x64' }),
    ).toBe(`/m/better-sqlite3/build/${target.folder}/better_sqlite3.node`);
    expect(target.prebuildArgs).toEqual([
      '--runtime',
      'electron',
      '--target',
      '45.5.0',
      '--arch',
      'x64',
      '--platform',
      'linux',
    ]);
    expect(target.rebuildArgs).toEqual(
      expect.arrayContaining(['--version', '45.5.0', '--only', 'better-sqlite3']),
    );
  });

  it('the binary itself says what it is (run as Node, no display needed)', () => {
    expect(probeElectron(fakeElectron(JSON.stringify(versions)))).toEqual(versions);
    expect(() => probeElectron(fakeElectron('{"electron":"45.5.0"}'))).toThrow(
      /did not report process\.versions\.modules/,
    );
  });

  it('MCPULSE_ELECTRON names a system Electron; else the package download is used', () => {
    const bin = fakeElectron('{}');
    expect(findElectronForInstall(dir, { MCPULSE_ELECTRON: bin })).toEqual({ binary: bin });
    expect(findElectronForInstall(dir, {})).toEqual({
      missing: 'the electron package is not installed',
    });
    const root = join(dir, 'with-package');
    mkdirSync(join(root, 'node_modules', 'electron', 'dist'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'electron', 'path.txt'), 'electron');
    writeFileSync(join(root, 'node_modules', 'electron', 'dist', 'electron'), '');
    expect(findElectronForInstall(root, {})).toEqual({
      binary: join(root, 'node_modules', 'electron', 'dist', 'electron'),
    });
  });
});

describe('install step: as a process', () => {
  it('without an Electron binary: one line, exit 0 (npm ci stays green)', () => {
    const root = join(dir, 'no-electron');
    mkdirSync(join(root, 'node_modules', 'electron'), { recursive: true });
    const r = runScript(['--root', root, '--postinstall']);
    expect(r).toEqual({
      code: 0,
      lines: [
        'electron-native: skipped — the Electron binary was never downloaded; the CLI is ' +
          'unaffected, and npm start serves the dashboard headless',
      ],
      stderr: '',
    });
  });

  it("runs electron's own download (denied as its postinstall); a failed one is one line, exit 0", () => {
    const root = join(dir, 'download-fails');
    mkdirSync(join(root, 'node_modules', 'electron'), { recursive: true });
    writeFileSync(
      join(root, 'node_modules', 'electron', 'install.js'),
      "console.error('RequestError: getaddrinfo ENOTFOUND github.com\\n    at somewhere'); process.exit(1);",
    );
    expect(runScript(['--root', root, '--postinstall'])).toEqual({
      code: 0,
      lines: [
        'electron-native: skipped — the Electron binary could not be downloaded (RequestError: ' +
          'getaddrinfo ENOTFOUND github.com); the CLI is unaffected, and npm start serves the ' +
          'dashboard headless',
      ],
      stderr: '',
    });
  });

  it('a download that succeeds puts the binary where the next step finds it', () => {
    const root = join(dir, 'download-works');
    const pkg = join(root, 'node_modules', 'electron');
    mkdirSync(pkg, { recursive: true });
    const binary = fakeElectron(JSON.stringify(versions));
    writeFileSync(
      join(pkg, 'install.js'),
      `const fs = require('node:fs');
fs.mkdirSync('dist');
fs.copyFileSync(${JSON.stringify(binary)}, 'dist/electron');
fs.chmodSync('dist/electron', 0o755);
fs.writeFileSync('path.txt', 'electron');`,
    );
    const r = runScript(['--root', root, '--dry-run']);
    expect(r.lines).toEqual([
      'electron-native: skipped — the Electron binary was never downloaded; the CLI is ' +
        'unaffected, and npm start serves the dashboard headless',
    ]);
    // Not a dry run: the download runs, then the binary answers the probe. (The build step
    // after it fails here: there is no better-sqlite3 in this fake root.)
    const real = runScript(['--root', root, '--postinstall']);
    expect(real.code).toBe(0);
    expect(real.lines[0]).toBe('electron-native: downloaded the Electron binary');
    expect(real.lines[1]).toMatch(/^electron-native: could not get SQLite for Electron 45\.5\.0 /);
  });

  it('with a (fake) Electron: picks its target and says what it would do', () => {
    const root = join(dir, 'dry-run');
    const r = runScript(['--root', root, '--dry-run'], {
      MCPULSE_ELECTRON: fakeElectron(JSON.stringify(versions)),
    });
    const dest = join(root, 'node_modules', 'better-sqlite3', 'build', 'electron-v140-linux-x64');
    expect(r.code).toBe(0);
    expect(r.lines).toEqual([
      `electron-native: would put SQLite for Electron 45.5.0 (ABI 140, linux-x64) at ` +
        `${join(dest, 'better_sqlite3.node')} (prebuild-install --runtime electron --target ` +
        '45.5.0 --arch x64 --platform linux, else @electron/rebuild)',
    ]);
  });

  it('a build already in place is left alone', () => {
    const root = join(dir, 'present');
    const dest = join(root, 'node_modules', 'better-sqlite3', 'build', 'electron-v140-linux-x64');
    mkdirSync(dest, { recursive: true });
    writeFileSync(join(dest, 'better_sqlite3.node'), 'built earlier');
    const r = runScript(['--root', root], {
      MCPULSE_ELECTRON: fakeElectron(JSON.stringify(versions)),
    });
    expect(r.code).toBe(0);
    expect(r.lines).toEqual([
      `electron-native: SQLite for Electron 45.5.0 (ABI 140, linux-x64) is already at ${join(dest, 'better_sqlite3.node')}`,
    ]);
  });

  it('a binary that will not say what it is: one line; fatal only when run by hand', () => {
    const env = { MCPULSE_ELECTRON: fakeElectron('not json') };
    const byHand = runScript(['--root', dir], env);
    expect(byHand.code).toBe(1);
    expect(byHand.lines).toEqual([
      expect.stringMatching(/^electron-native: skipped — .* would not report its version \(/),
    ]);
    expect(runScript(['--root', dir, '--postinstall'], env).code).toBe(0);
  });
});

describe('packaging hook: the build for the target goes where the packaged app looks', () => {
  const ROOT = join(import.meta.dirname, '..', '..');
  const context = (platform: string, arch: number, electronVersion?: string): PackContext => ({
    appOutDir: '/release/linux-unpacked',
    electronPlatformName: platform,
    arch,
    packager: {
      projectDir: ROOT,
      config: { electronVersion },
      getResourcesDir: (appOutDir) => join(appOutDir, 'resources'),
    },
  });

  it("the installed Electron's version and ABI, the target's platform and arch", () => {
    const plan = packagedPlan(context('linux', 1));
    const installed = (
      JSON.parse(readFileSync(join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    const abi = readFileSync(join(ROOT, 'node_modules', 'electron', 'abi_version'), 'utf8').trim();
    expect(plan.versions).toEqual({
      electron: installed,
      modules: abi,
      platform: 'linux',
      arch: 'x64',
    });
    const unpacked =
      '/release/linux-unpacked/resources/app.asar.unpacked/node_modules/better-sqlite3';
    expect(plan.dest).toBe(`${unpacked}/build/electron-v${abi}-linux-x64/better_sqlite3.node`);
    // …which is exactly where the packaged main process looks.
    expect(
      nativeBindingPath(unpacked.replace('app.asar.unpacked', 'app.asar'), {
        abi,
        platform: 'linux',
        arch: 'x64',
      }),
    ).toBe(plan.dest);
  });

  it('a cross-build (Windows arm64 from here) cannot verify or compile, only fetch', () => {
    const plan = packagedPlan(context('win32', 3, '45.5.0'));
    expect(plan.versions).toMatchObject({ electron: '45.5.0', platform: 'win32', arch: 'arm64' });
    expect(plan.native).toBe(false);
  });

  it('a universal macOS build is refused with a clear error', () => {
    expect(() => packagedPlan(context('darwin', 4))).toThrow(/package one arch at a time/);
  });
});
