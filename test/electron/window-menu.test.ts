/**
 * The plain parts of the shell: the remembered window state (over an injected file adapter),
 * the menu template, and where the Electron build of SQLite is looked for.
 */
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildMenuTemplate,
  MENU_LABELS,
  windowTitle,
  type MenuEntry,
} from '../../src/electron/menu.js';
import {
  nativeBindingPath,
  resolveNativeBinding,
  unpackedPath,
} from '../../src/electron/native-binding.js';
import {
  DEFAULT_SIZE,
  loadWindowState,
  parseWindowState,
  saveWindowState,
  type StateFile,
} from '../../src/electron/window-state.js';

/** A file adapter over a Map, the way the shell's real one wraps node:fs. */
function memoryFile(
  initial: Record<string, string> = {},
): StateFile & { files: Map<string, string> } {
  const files = new Map(Object.entries(initial));
  return {
    files,
    readText: (path) => files.get(path),
    writeText: (path, text) => void files.set(path, text),
  };
}

const SCREEN = [{ x: 0, y: 0, width: 1920, height: 1080 }];
const PATH = '/u/window-state.json';

describe('window state', () => {
  it('round-trips: what was saved is what opens', () => {
    const file = memoryFile();
    const state = { bounds: { x: 40, y: 30, width: 1200, height: 800 }, maximized: false };
    expect(saveWindowState(file, PATH, state)).toBe(true);
    expect(loadWindowState(file, PATH, SCREEN)).toEqual(state);
  });

  it('a first launch (no file) opens the default size, centred', () => {
    expect(loadWindowState(memoryFile(), PATH, SCREEN)).toEqual({
      bounds: { x: 240, y: 80, ...DEFAULT_SIZE },
      maximized: false,
    });
  });

  it('a small screen shrinks the default to fit, never below the minimum', () => {
    const small = [{ x: 0, y: 0, width: 1280, height: 720 }];
    expect(loadWindowState(memoryFile(), PATH, small).bounds).toEqual({
      x: 0,
      y: 0,
      width: 1280,
      height: 720,
    });
  });

  it('a window saved on a monitor since unplugged comes back onto the screen', () => {
    const file = memoryFile({
      [PATH]: JSON.stringify({
        bounds: { x: 3000, y: 100, width: 1000, height: 700 },
        maximized: true,
      }),
    });
    const state = loadWindowState(file, PATH, SCREEN);
    expect(state.maximized).toBe(true);
    expect(state.bounds).toEqual({ x: 240, y: 80, ...DEFAULT_SIZE });
    // …while one on the second monitor, still plugged in, stays there.
    const two = [...SCREEN, { x: 1920, y: 0, width: 2560, height: 1440 }];
    expect(loadWindowState(file, PATH, two).bounds).toEqual({
      x: 3000,
      y: 100,
      width: 1000,
      height: 700,
    });
  });

  it('a corrupt, partial or hostile file is a first launch, not a crash', () => {
    for (const text of [
      '',
      '{',
      'null',
      '[]',
      '{"bounds":{"x":1}}',
      '{"bounds":{"x":0,"y":0,"width":-5,"height":9}}',
      '{"bounds":{"x":"0","y":0,"width":900,"height":600}}',
    ]) {
      expect(parseWindowState(text)).toBeNull();
      expect(loadWindowState(memoryFile({ [PATH]: text }), PATH, SCREEN).bounds).toEqual({
        x: 240,
        y: 80,
        ...DEFAULT_SIZE,
      });
    }
  });

  it('a size below the minimum is raised to it', () => {
    const file = memoryFile({
      [PATH]: JSON.stringify({ bounds: { x: 10, y: 10, width: 200, height: 100 } }),
    });
    expect(loadWindowState(file, PATH, SCREEN)).toEqual({
      bounds: { x: 10, y: 10, width: 900, height: 600 },
      maximized: false,
    });
  });

  it('an unreadable or unwritable file costs only the memory of the window', () => {
    const broken: StateFile = {
      readText: () => {
        throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
      },
      writeText: () => {
        throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
      },
    };
    expect(loadWindowState(broken, PATH, SCREEN).bounds).toMatchObject(DEFAULT_SIZE);
    expect(saveWindowState(broken, PATH, { bounds: SCREEN[0]!, maximized: false })).toBe(false);
  });
});

/** Every entry, submenus flattened. */
const flatten = (entries: MenuEntry[]): MenuEntry[] =>
  entries.flatMap((e) => [e, ...flatten(e.submenu ?? [])]);

describe('application menu', () => {
  const calls: string[] = [];
  const actions = {
    copyEndpointUrl: () => void calls.push('copy'),
    openDataFolder: () => void calls.push('folder'),
    reload: () => void calls.push('reload'),
    toggleDevTools: () => void calls.push('devtools'),
  };

  it('has the four commands, each wired to its action', () => {
    const items = flatten(buildMenuTemplate('linux', actions));
    const byLabel = (label: string) => items.find((i) => i.label === label);
    calls.length = 0;
    for (const label of Object.values(MENU_LABELS)) byLabel(label)!.click!();
    expect(calls).toEqual(['copy', 'folder', 'reload', 'devtools']);
    expect(byLabel(MENU_LABELS.reload)!.accelerator).toBe('CmdOrCtrl+R');
    expect(byLabel(MENU_LABELS.toggleDevTools)!.accelerator).toBe('Ctrl+Shift+I');
  });

  it('follows each platform: macOS gets the app menu first, others quit from File', () => {
    const mac = buildMenuTemplate('darwin', actions);
    expect(mac[0]).toEqual({ role: 'appMenu' });
    expect(flatten(mac).find((i) => i.label === MENU_LABELS.toggleDevTools)!.accelerator).toBe(
      'Alt+Cmd+I',
    );
    const linux = buildMenuTemplate('linux', actions);
    expect(linux.map((m) => m.label ?? m.role)).toEqual(['File', 'editMenu', 'View', 'windowMenu']);
    expect(linux[0]!.submenu!.at(-1)).toEqual({ role: 'quit' });
    expect(buildMenuTemplate('win32', actions)).toEqual(linux);
  });

  it('the title names the port', () => {
    expect(windowTitle(7857)).toBe('MCPulse Devtools — localhost:7857');
  });
});

describe('where the Electron build of SQLite is looked for', () => {
  const target = { abi: '140', platform: 'linux' as const, arch: 'x64' };

  it('from a checkout: the build the install step put beside the Node one', () => {
    const dir = join('/repo', 'node_modules', 'better-sqlite3');
    const path = join(dir, 'build', 'electron-v140-linux-x64', 'better_sqlite3.node');
    expect(nativeBindingPath(dir, target)).toBe(path);
    expect(resolveNativeBinding(dir, target, (p) => p === path)).toBe(path);
  });

  it('packaged: the same folder, outside the asar archive (native files cannot load from it)', () => {
    const inAsar = [
      '',
      'opt',
      'MCPulse',
      'resources',
      'app.asar',
      'node_modules',
      'better-sqlite3',
    ].join(sep);
    const unpacked = inAsar.replace('app.asar', 'app.asar.unpacked');
    expect(unpackedPath(inAsar)).toBe(unpacked);
    expect(nativeBindingPath(inAsar, target)).toBe(
      join(unpacked, 'build', 'electron-v140-linux-x64', 'better_sqlite3.node'),
    );
  });

  it('nothing found: better-sqlite3 is left to its own lookup (start-up then explains)', () => {
    expect(resolveNativeBinding('/nowhere', target, () => false)).toBeUndefined();
  });
});
