/**
 * The failure every Electron developer meets first: better_sqlite3.node built for another
 * NODE_MODULE_VERSION. The fixture is a real addon compiled here for an ABI one above this
 * Node's (fixtures/wrong-abi.c, with the system C compiler — the same toolchain better-sqlite3
 * builds from source with), so the loader's own error reaches start-up, which must name the
 * module, both ABIs and the fix in a dialog, and exit 1.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { electronBuildFolder } from '../../src/electron/native-binding.js';
import { FAILURE_TITLE, startDesktop } from '../../src/electron/startup.js';
import { useNativeBinding } from '../../src/store/index.js';
import { fakeDesktop } from './fake-surface.js';

const here = process.versions.modules;
const other = String(Number(here) + 1);
let sqliteDir: string;
let addon: string;

beforeAll(() => {
  sqliteDir = mkdtempSync(join(tmpdir(), 'mcpulse-abi-'));
  const target = { abi: here, platform: 'linux' as const, arch: 'x64' };
  addon = join(sqliteDir, 'build', electronBuildFolder(target), 'better_sqlite3.node');
  mkdirSync(join(addon, '..'), { recursive: true });
  // macOS links shared objects strictly: node_module_register comes from the host at load.
  const lazy = process.platform === 'darwin' ? ['-undefined', 'dynamic_lookup'] : [];
  const source = join(import.meta.dirname, 'fixtures', 'wrong-abi.c');
  execFileSync('cc', ['-shared', '-fPIC', ...lazy, `-DWRONG_ABI=${other}`, '-o', addon, source]);
});
afterAll(() => {
  useNativeBinding(undefined);
  rmSync(sqliteDir, { recursive: true, force: true });
});

describe('desktop start-up: SQLite built for another NODE_MODULE_VERSION', () => {
  it('dialog naming the module, its ABI, the ABI needed and the fix; exit 1; launcher told', async () => {
    const d = fakeDesktop({ betterSqliteDir: sqliteDir });
    try {
      expect(await startDesktop(d.surface)).toBeNull();
      expect(d.exitCodes).toEqual([1]);
      expect(d.windows).toEqual([]);
      expect(d.dialogs).toEqual([
        {
          title: FAILURE_TITLE,
          content:
            `SQLite's native module ${addon} was built for NODE_MODULE_VERSION ${other}, but ` +
            `this Electron needs ${here}. Run \`npm run electron:native\` in the checkout (it ` +
            'fetches or builds SQLite for this Electron), or use `npm run serve` for the ' +
            'dashboard in a browser.',
        },
      ]);
      expect(d.signals).toEqual([
        { type: 'mcpulse:startup-failed', message: d.dialogs[0]!.content },
      ]);
    } finally {
      d.cleanup();
    }
  });
});
