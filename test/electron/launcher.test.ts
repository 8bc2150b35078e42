/**
 * `npm start`'s launcher (src/cli/electron-spawn.ts, src/cli/commands/start.ts) against fake
 * Electron binaries run as real processes: it waits for the window signal, stops an Electron
 * that stays silent, falls back when one exits, and honours --electron / MCPULSE_ELECTRON.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseElectronBinary, PACKAGE_ROOT } from '../../src/cli/electron-launch.js';
import {
  DEFAULT_WINDOW_WAIT_MS,
  launchElectron,
  windowWaitMs,
} from '../../src/cli/electron-spawn.js';
import { takeElectronFlag } from '../../src/cli/commands/start.js';
import { parseLauncherLine } from '../../src/host/launcher-signal.js';
import { fakeElectrons, isAlive } from './fake-electron.js';

const fakes = fakeElectrons();
afterAll(() => fakes.cleanup());

/** Electron's own stdout, as the launcher passed it through. */
let passedThrough = '';
const stdout = new Writable({
  write(chunk: Buffer, _encoding, done) {
    passedThrough += chunk.toString();
    done();
  },
});

const launch = (binary: string, waitMs = 1500) => {
  passedThrough = '';
  return launchElectron({
    binary,
    appRoot: PACKAGE_ROOT,
    argv: ['--port', '0'],
    env: process.env,
    waitMs,
    stdout,
  });
};

describe('launchElectron: waits for the window, never for ever', () => {
  it('an Electron that hangs without a window is stopped within the wait, and the reason said', async () => {
    const started = Date.now();
    const outcome = await launch(fakes.binary('hangs'), 1500);
    const took = Date.now() - started;
    expect(outcome).toEqual({
      kind: 'fallback',
      reason: 'Electron showed no window within 1.5 s, so it was stopped',
    });
    expect(took).toBeGreaterThanOrEqual(1500);
    expect(took).toBeLessThan(1500 + 3000); // SIGTERM was enough; no SIGKILL grace spent
    const ran = fakes.recorded('hangs');
    expect(ran).not.toBeNull();
    expect(isAlive(ran!.pid)).toBe(false);
  });

  it('an Electron that exits at once: fallback at once, with its exit code', async () => {
    const started = Date.now();
    expect(await launch(fakes.binary('exitsAtOnce'), 10_000)).toEqual({
      kind: 'fallback',
      reason: 'Electron exited with code 3 before showing a window',
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('an Electron that signals its window: no fallback; its exit code is the result', async () => {
    const outcome = await launch(fakes.binary('showsWindow'), 10_000);
    expect(outcome).toMatchObject({ kind: 'window', url: 'http://localhost:7857' });
    if (outcome.kind !== 'window') throw new Error('unreachable');
    expect(await outcome.exited).toBe(0);
    // It got the app folder first, then the arguments start passes on.
    expect(fakes.recorded('showsWindow')!.argv).toEqual([PACKAGE_ROOT, '--port', '0']);
    // Its own output reached the terminal; the signal line did not.
    expect(passedThrough).toBe('[fake electron] showsWindow starting\n');
  });

  it('a start-up failure the main process reported is the reason given', async () => {
    expect(await launch(fakes.binary('failsStartup'), 10_000)).toEqual({
      kind: 'fallback',
      reason: 'Electron failed to start: database x is locked',
    });
  });

  it('a second instance that handed over is not a failure', async () => {
    expect(await launch(fakes.binary('handsOver'), 10_000)).toEqual({ kind: 'handed-over' });
  });

  it('a signal line is only ever ours: anything malformed is passed through as output', () => {
    expect(parseLauncherLine('@mcpulse-launcher {"type":"mcpulse:handed-over"}')).toEqual({
      type: 'mcpulse:handed-over',
    });
    for (const line of [
      'mcpulse:window-shown',
      '@mcpulse-launcher {"type":"mcpulse:window-shown"}',
      '@mcpulse-launcher {not json',
      '@mcpulse-launcher {"type":"something-else"}',
      '[1204/021501.123:ERROR:gpu_init.cc] Passthrough is not supported',
    ])
      expect(parseLauncherLine(line)).toBeNull();
  });

  it('a binary that cannot be run at all: fallback with the error', async () => {
    const outcome = await launch(join(fakes.dir, 'does-not-exist'), 10_000);
    expect(outcome).toMatchObject({
      kind: 'fallback',
      reason: expect.stringMatching(/^Electron could not be run \(spawn .*ENOENT\)$/),
    });
  });
});

describe('which Electron: --electron, then MCPULSE_ELECTRON, then the package', () => {
  it('--electron PATH beats MCPULSE_ELECTRON, which beats the downloaded one', () => {
    const flag = fakes.binary('showsWindow');
    const env = fakes.binary('hangs');
    expect(chooseElectronBinary(flag, { MCPULSE_ELECTRON: env }, fakes.dir)).toEqual({
      path: flag,
    });
    expect(chooseElectronBinary(undefined, { MCPULSE_ELECTRON: env }, fakes.dir)).toEqual({
      path: env,
    });
    expect(chooseElectronBinary(undefined, {}, fakes.dir)).toEqual({
      missing: 'the electron package is not installed',
    });
  });

  it('a named binary that is missing or not executable is said as such', () => {
    const missing = join(fakes.dir, 'nope');
    expect(chooseElectronBinary(undefined, { MCPULSE_ELECTRON: missing })).toEqual({
      missing: `no Electron binary at ${missing} (from MCPULSE_ELECTRON)`,
    });
    const plain = join(fakes.dir, 'not-executable');
    writeFileSync(plain, '');
    chmodSync(plain, 0o644);
    expect(chooseElectronBinary(plain, {})).toEqual({
      missing: `${plain} (from --electron) is not executable`,
    });
    expect(chooseElectronBinary(fakes.dir, {})).toEqual({
      missing: `${fakes.dir} (from --electron) is not a file`,
    });
  });

  it('--electron is taken off the arguments serve and the app share', () => {
    expect(takeElectronFlag(['--port', '1', '--electron', '/e', '--db', 'x'])).toEqual({
      electron: '/e',
      rest: ['--port', '1', '--db', 'x'],
    });
    expect(takeElectronFlag(['--electron=/e'])).toEqual({ electron: '/e', rest: [] });
    expect(takeElectronFlag(['--port', '1'])).toEqual({ rest: ['--port', '1'] });
    expect(() => takeElectronFlag(['--electron'])).toThrow(/--electron: expected the path/);
  });

  it('the wait is 20 s unless MCPULSE_ELECTRON_WAIT_MS says otherwise', () => {
    expect(DEFAULT_WINDOW_WAIT_MS).toBe(20_000);
    expect(windowWaitMs({})).toBe(20_000);
    expect(windowWaitMs({ MCPULSE_ELECTRON_WAIT_MS: '2500' })).toBe(2500);
    expect(windowWaitMs({ MCPULSE_ELECTRON_WAIT_MS: 'soon' })).toBe(20_000);
  });
});
