/**
 * `mcpulse-devtools start` as a real process with fake Electron binaries: the user-visible
 * result of the launcher — one line and the dashboard headless when there is no window, and
 * nothing but the app when there is. Launching needs the built entry (out/main/index.js,
 * which `npm test` builds first), as a real `npm start` does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/cli/electron-launch.js';
import { runCli, spawnCli, waitForOutput } from '../helpers/cli.js';
import { fakeElectrons } from './fake-electron.js';
import { authedFetch } from '../helpers/token.js';

const fakes = fakeElectrons();
const dir = mkdtempSync(join(tmpdir(), 'mcpulse-start-'));
afterAll(() => {
  fakes.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** A display as far as the launcher can tell (the fakes need none). */
const desktopEnv = { DISPLAY: ':0', MCPULSE_ELECTRON: '', MCPULSE_ELECTRON_WAIT_MS: '1500' };

describe('mcpulse-devtools start', () => {
  it('an Electron with no window: stopped, one line, the dashboard served headless', async () => {
    const db = join(dir, 'fallback.db');
    const child = spawnCli(
      ['start', '--electron', fakes.binary('hangs'), '--port', '0', '--db', db],
      desktopEnv,
    );
    try {
      const out = await waitForOutput(child, (o) => /dashboard\s+http:\/\/localhost:\d+/.test(o));
      expect(child.err()).toBe(
        'Electron showed no window within 1.5 s, so it was stopped: serving the dashboard ' +
          'in your browser instead\n',
      );
      // The printed link: the dashboard's origin and the owner token it carries.
      const url = new URL(/dashboard\s+(http:\/\/\S+)/.exec(out)![1]!).origin;
      const status = (await (await authedFetch(`${url}/api/status`)).json()) as { dbPath: string };
      expect(status.dbPath).toBe(db);
      // The fake got the app folder and serve's options, not --electron.
      expect(fakes.recorded('hangs')!.argv).toEqual([PACKAGE_ROOT, '--port', '0', '--db', db]);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  it('MCPULSE_ELECTRON is honoured: its window shown, no fallback, its exit code returned', async () => {
    const { code, stdout, stderr } = await runCli(['start', '--port', '0'], {
      env: { ...desktopEnv, MCPULSE_ELECTRON: fakes.binary('showsWindow') },
    });
    expect({ code, stdout, stderr }).toEqual({
      code: 0,
      stdout: '[fake electron] showsWindow starting\n',
      stderr: '',
    });
    expect(fakes.recorded('showsWindow')!.argv).toEqual([PACKAGE_ROOT, '--port', '0']);
  });

  it('an Electron that exits at once: the fallback says so in one line', async () => {
    const db = join(dir, 'exits.db');
    const child = spawnCli(['start', '--port', '0', '--db', db], {
      ...desktopEnv,
      MCPULSE_ELECTRON: fakes.binary('exitsAtOnce'),
    });
    try {
      await waitForOutput(child, (o) => /dashboard\s+http:\/\/localhost:\d+/.test(o));
      expect(child.err()).toBe(
        'Electron exited with code 3 before showing a window: serving the dashboard in your ' +
          'browser instead\n',
      );
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  it('a second launch that handed over to the open app exits 0 and says so', async () => {
    const { code, stdout, stderr } = await runCli(['start'], {
      env: { ...desktopEnv, MCPULSE_ELECTRON: fakes.binary('handsOver') },
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe(
      '[fake electron] handsOver starting\n' +
        'MCPulse Devtools is already open: its window was brought to the front\n',
    );
  });
});
