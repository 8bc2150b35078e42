/**
 * A recording stand-in for Electron's app, dialog, windows and shell, so the main process's
 * real start-up (src/electron/startup.ts) runs in Node. Only Electron is faked: the store,
 * the server, the port and the files are real.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOKEN_ENV_VARS } from '../helpers/token.js';
import type { LauncherSignal } from '../../src/host/launcher-signal.js';
import type { MenuEntry } from '../../src/electron/menu.js';
import type {
  DesktopSurface,
  DesktopWindow,
  SessionCookie,
  WindowOptions,
} from '../../src/electron/surface.js';
import type { Bounds } from '../../src/electron/window-state.js';

type AppEvent = 'second-instance' | 'activate' | 'window-all-closed' | 'will-quit';

/** A window that records what start-up did to it. */
export interface FakeWindow extends DesktopWindow {
  options: WindowOptions;
  calls: string[];
  minimized: boolean;
  maximized: boolean;
  bounds: Bounds;
  loadedUrl?: string;
  /** Fires one of the window's events, as Electron would. */
  emit(event: 'ready-to-show' | 'close' | 'closed'): void;
}

/** The fake surface plus what it recorded. */
export interface FakeDesktop {
  surface: DesktopSurface;
  userData: string;
  windows: FakeWindow[];
  dialogs: { title: string; content: string }[];
  signals: LauncherSignal[];
  stderr: string[];
  exitCodes: number[];
  quits: number;
  menus: MenuEntry[][];
  guardedOrigins: string[];
  /** Cookies set on the window's session, in order. */
  cookies: SessionCookie[];
  copied: string[];
  opened: string[];
  files: Map<string, string>;
  /** Fires an app event (every listener start-up registered). */
  emitApp(event: AppEvent): void;
  cleanup(): void;
}

function fakeWindow(options: WindowOptions, loadFails: boolean): FakeWindow {
  const listeners = new Map<string, (() => void)[]>();
  const on = (event: string, listener: () => void): void => {
    listeners.set(event, [...(listeners.get(event) ?? []), listener]);
  };
  const win: FakeWindow = {
    options,
    calls: [],
    minimized: false,
    maximized: false,
    bounds: { ...options.bounds },
    show: () => void win.calls.push('show'),
    focus: () => void win.calls.push('focus'),
    restore: () => {
      win.calls.push('restore');
      win.minimized = false;
    },
    maximize: () => {
      win.calls.push('maximize');
      win.maximized = true;
    },
    isMinimized: () => win.minimized,
    isMaximized: () => win.maximized,
    getNormalBounds: () => ({ ...win.bounds }),
    loadURL: async (url) => {
      win.loadedUrl = url;
      if (loadFails) throw new Error('ERR_CONNECTION_REFUSED (-102) loading ' + url);
    },
    reload: () => void win.calls.push('reload'),
    toggleDevTools: () => void win.calls.push('toggleDevTools'),
    once: on,
    on,
    emit: (event) => {
      const fns = listeners.get(event) ?? [];
      if (event === 'ready-to-show') listeners.delete(event);
      for (const fn of fns) fn();
    },
  };
  return win;
}

/** Options for {@link fakeDesktop}. */
export interface FakeDesktopOptions {
  argv?: string[];
  env?: NodeJS.ProcessEnv;
  singleInstance?: boolean;
  canShowDialogs?: boolean;
  platform?: NodeJS.Platform;
  betterSqliteDir?: string;
  abi?: string;
  workAreas?: Bounds[];
  loadFails?: boolean;
}

/** A fresh fake desktop with its own user-data folder under the OS temp folder. */
export function fakeDesktop(options: FakeDesktopOptions = {}): FakeDesktop {
  const userData = mkdtempSync(join(tmpdir(), 'mcpulse-desktop-'));
  const appListeners = new Map<AppEvent, (() => void)[]>();
  const recorded: Omit<FakeDesktop, 'surface' | 'emitApp' | 'cleanup'> = {
    userData,
    windows: [],
    dialogs: [],
    signals: [],
    stderr: [],
    exitCodes: [],
    quits: 0,
    menus: [],
    guardedOrigins: [],
    cookies: [],
    copied: [],
    opened: [],
    files: new Map(),
  };
  const surface: DesktopSurface = {
    app: {
      requestSingleInstanceLock: () => options.singleInstance ?? true,
      whenReady: () => Promise.resolve(),
      getPath: () => userData,
      on: (event, listener) =>
        appListeners.set(event, [...(appListeners.get(event) ?? []), listener]),
      quit: () => void recorded.quits++,
      exit: (code) => void recorded.exitCodes.push(code),
    },
    dialog: { showErrorBox: (title, content) => void recorded.dialogs.push({ title, content }) },
    createWindow: (windowOptions) => {
      const win = fakeWindow(windowOptions, options.loadFails ?? false);
      recorded.windows.push(win);
      return win;
    },
    setApplicationMenu: (template) => void recorded.menus.push(template),
    guardContents: (origin) => void recorded.guardedOrigins.push(origin),
    setCookie: (cookie) => {
      recorded.cookies.push(cookie);
      return Promise.resolve();
    },
    copyText: (text) => void recorded.copied.push(text),
    openFolder: (path) => void recorded.opened.push(path),
    workAreas: () => options.workAreas ?? [{ x: 0, y: 0, width: 1920, height: 1080 }],
    stateFile: {
      readText: (path) => recorded.files.get(path),
      writeText: (path, text) => void recorded.files.set(path, text),
    },
    canShowDialogs: options.canShowDialogs ?? true,
    writeStderr: (text) => void recorded.stderr.push(text),
    signalLauncher: (signal) => void recorded.signals.push(signal),
    platform: options.platform ?? 'linux',
    nativeTarget: { abi: options.abi ?? process.versions.modules, platform: 'linux', arch: 'x64' },
    // By default a folder with no Electron build: the test process's own addon is used.
    betterSqliteDir: options.betterSqliteDir ?? join(userData, 'no-better-sqlite3'),
    fileExists: existsSync,
    argv: options.argv ?? ['--port', '0'],
    // The owner token is this test file's; its folder (~/.mcpulse-devtools), were one made,
    // would be in the temp folder, never the real home.
    env: options.env ?? { HOME: userData, ...TOKEN_ENV_VARS },
  };
  return {
    ...recorded,
    get quits() {
      return recorded.quits;
    },
    surface,
    emitApp: (event) => {
      for (const fn of appListeners.get(event) ?? []) fn();
    },
    cleanup: () => rmSync(userData, { recursive: true, force: true }),
  };
}
