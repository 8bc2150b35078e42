/**
 * scripts/build-changed.mjs, what `npm start` and `npm run demo` build first (issue 43): a
 * second start with nothing changed must not run electron-vite again, and any change to what
 * electron-vite reads must. Real files in a temporary project; the two builds are stand-ins
 * that write what the real ones leave (a real electron-vite run takes seconds and writes out/).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  APP_OUTPUTS,
  APP_STAMP,
  appInputFiles,
  appInputsHash,
  appIsCurrent,
  buildChanged,
  CORE_BUILD_INFO,
} from '../../scripts/build-changed.mjs';

const repo = join(import.meta.dirname, '..', '..');
let root: string;

const write = (file: string, text: string): void => {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
};

/** Stand-ins for tsc -b and electron-vite that leave their outputs and count their runs. */
function fakeTools(appExit = 0) {
  const runs = { tsc: 0, app: 0 };
  return {
    runs,
    tools: {
      tscBuild: () => {
        runs.tsc++;
        write(CORE_BUILD_INFO, '{}');
        return 0;
      },
      appBuild: () => {
        runs.app++;
        if (appExit === 0) for (const file of APP_OUTPUTS) write(file, 'built');
        return appExit;
      },
    },
  };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mcpulse-build-changed-'));
  write('package.json', '{"name":"x"}');
  write('electron.vite.config.ts', 'export default {};');
  write('src/cli/main.ts', 'export {};');
  write('renderer/src/App.tsx', 'export const App = 1;');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the app inputs hash', () => {
  it('covers src/, renderer/, the config and root .env files, but not node_modules', () => {
    write('renderer/node_modules/x/index.js', '');
    write('.env.production', 'VITE_X=1');
    write('README.md', 'not an input');
    expect(appInputFiles(root)).toEqual([
      '.env.production',
      'electron.vite.config.ts',
      'package.json',
      'renderer/src/App.tsx',
      'src/cli/main.ts',
    ]);
  });

  it('changes with an edit, a new file and a deleted one, and not with a rewrite of the same bytes', () => {
    const before = appInputsHash(root);
    write('renderer/src/App.tsx', 'export const App = 1;');
    expect(appInputsHash(root)).toBe(before);
    write('renderer/src/App.tsx', 'export const App = 2;');
    const edited = appInputsHash(root);
    expect(edited).not.toBe(before);
    write('src/new.ts', '');
    expect(appInputsHash(root)).not.toBe(edited);
    rmSync(join(root, 'src/new.ts'));
    expect(appInputsHash(root)).toBe(edited);
  });

  it('is current only with every output present and the stamp of these inputs', () => {
    expect(appIsCurrent(root)).toBe(false);
    for (const file of APP_OUTPUTS) write(file, 'built');
    expect(appIsCurrent(root)).toBe(false); // outputs without a stamp: an unknown build
    write(APP_STAMP, `${appInputsHash(root)}\n`);
    expect(appIsCurrent(root)).toBe(true);
    rmSync(join(root, APP_OUTPUTS[1]!));
    expect(appIsCurrent(root)).toBe(false);
  });
});

describe('buildChanged', () => {
  it('says a first start is building, and builds both parts', () => {
    const { runs, tools } = fakeTools();
    const said: string[] = [];
    expect(buildChanged({ root, tools, say: (l) => said.push(l) })).toBe(0);
    expect(runs).toEqual({ tsc: 1, app: 1 });
    expect(said[0]).toMatch(/building the app \(the first start/);
    expect(readFileSync(join(root, APP_STAMP), 'utf8').trim()).toBe(appInputsHash(root));
  });

  it('a second start with nothing changed runs only tsc -b (its own up-to-date check)', () => {
    buildChanged({ root, tools: fakeTools().tools, say: () => {} });
    const { runs, tools } = fakeTools();
    const said: string[] = [];
    expect(buildChanged({ root, tools, say: (l) => said.push(l) })).toBe(0);
    expect(runs).toEqual({ tsc: 1, app: 0 });
    expect(said).toEqual([expect.stringMatching(/^mcpulse: up to date \(checked in [\d.]+ s\)$/)]);
  });

  it('rebuilds the app after a renderer edit, saying why', () => {
    buildChanged({ root, tools: fakeTools().tools, say: () => {} });
    write('renderer/src/App.tsx', 'export const App = 3;');
    const { runs, tools } = fakeTools();
    const said: string[] = [];
    buildChanged({ root, tools, say: (l) => said.push(l) });
    expect(runs.app).toBe(1);
    expect(said[0]).toMatch(/the dashboard changed since its last build/);
  });

  it('a failed app build keeps the old stamp, so the next start tries again', () => {
    buildChanged({ root, tools: fakeTools().tools, say: () => {} });
    const stamp = readFileSync(join(root, APP_STAMP), 'utf8');
    write('src/cli/main.ts', 'export const broken = ;');
    expect(buildChanged({ root, tools: fakeTools(1).tools, say: () => {} })).toBe(1);
    expect(readFileSync(join(root, APP_STAMP), 'utf8')).toBe(stamp);
    const { runs, tools } = fakeTools();
    buildChanged({ root, tools, say: () => {} });
    expect(runs.app).toBe(1);
  });

  it('a failed core build stops before the app', () => {
    const runs = { app: 0 };
    const tools = { tscBuild: () => 2, appBuild: () => ++runs.app && 0 };
    expect(buildChanged({ root, tools, say: () => {} })).toBe(2);
    expect(runs.app).toBe(0);
  });
});

describe('this repository', () => {
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };

  it('npm start and npm run demo build what changed first; npm run build stays full and stamps', () => {
    expect(pkg.scripts.start).toBe('node scripts/build-changed.mjs && node dist/cli/main.js start');
    expect(pkg.scripts.demo).toBe('node scripts/build-changed.mjs && node dist/cli/main.js demo');
    expect(pkg.scripts['build:core']).toBe(
      'tsc -b tsconfig.build.json --force && node scripts/build-changed.mjs --bins',
    );
    expect(pkg.scripts['build:app']).toMatch(/&& node scripts\/build-changed\.mjs --stamp$/);
  });

  it('keeps its build records where git ignores them, inside the outputs they describe', () => {
    const config = JSON.parse(readFileSync(join(repo, 'tsconfig.build.json'), 'utf8')) as {
      compilerOptions: { incremental?: boolean; tsBuildInfoFile?: string };
    };
    expect(config.compilerOptions).toMatchObject({ incremental: true });
    expect(config.compilerOptions.tsBuildInfoFile).toBe(CORE_BUILD_INFO);
    // check-ignore -q exits 0 only when the path is ignored (and takes one path at a time).
    for (const file of [CORE_BUILD_INFO, APP_STAMP])
      execFileSync('git', ['check-ignore', '-q', file], { cwd: repo });
  });
});
