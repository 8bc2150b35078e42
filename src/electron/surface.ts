/**
 * The part of Electron the main process's start-up uses, as plain interfaces. main.ts adapts
 * the real `app`, `dialog`, `BrowserWindow`, `Menu`, `clipboard` and `shell` to it; the tests
 * pass recording fakes, so every start-up path runs in Node without the Electron binary.
 */
import type { LauncherSignal } from '../host/launcher-signal.js';
import type { MenuEntry } from './menu.js';
import type { NativeTarget } from './native-binding.js';
import type { Bounds, StateFile } from './window-state.js';

/** Electron's `app`, as much of it as start-up needs. */
export interface DesktopApp {
  requestSingleInstanceLock(): boolean;
  whenReady(): Promise<unknown>;
  getPath(name: 'userData'): string;
  on(
    event: 'second-instance' | 'activate' | 'window-all-closed' | 'will-quit',
    listener: () => void,
  ): unknown;
  quit(): void;
  exit(code: number): void;
}

/** Electron's `dialog`: start-up only ever shows an error. */
export interface DesktopDialog {
  showErrorBox(title: string, content: string): void;
}

/** What the window must be created with. */
export interface WindowOptions {
  bounds: Bounds;
  minWidth: number;
  minHeight: number;
  title: string;
}

/** A `BrowserWindow` with its `webContents` calls folded in. */
export interface DesktopWindow {
  show(): void;
  focus(): void;
  restore(): void;
  maximize(): void;
  isMinimized(): boolean;
  isMaximized(): boolean;
  /** The bounds when neither maximised nor minimised. */
  getNormalBounds(): Bounds;
  loadURL(url: string): Promise<void>;
  reload(): void;
  toggleDevTools(): void;
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'close' | 'closed', listener: () => void): unknown;
}

/** A cookie for the window's session (Electron's `session.cookies.set` details). */
export interface SessionCookie {
  url: string;
  name: string;
  value: string;
  path: '/';
  httpOnly: true;
  sameSite: 'strict';
  /** Seconds since the epoch; without it the cookie lasts as long as the app runs. */
  expirationDate?: number;
}

/** Everything start-up touches outside plain Node: Electron, the OS shell, the launcher. */
export interface DesktopSurface {
  app: DesktopApp;
  dialog: DesktopDialog;
  createWindow(options: WindowOptions): DesktopWindow;
  setApplicationMenu(template: MenuEntry[]): void;
  /**
   * Sets a cookie on the window's session before anything loads: how the owner token reaches
   * the dashboard without ever being in a URL the user sees.
   */
  setCookie(cookie: SessionCookie): Promise<void>;
  /** Permissions denied, navigation and new windows locked to `appOrigin` (policy.ts). */
  guardContents(appOrigin: string): void;
  copyText(text: string): void;
  openFolder(path: string): void;
  /** The displays' work areas, primary first. */
  workAreas(): Bounds[];
  stateFile: StateFile;
  /** False where a dialog cannot appear (Linux with neither DISPLAY nor WAYLAND_DISPLAY). */
  canShowDialogs: boolean;
  writeStderr(text: string): void;
  /** The signal line on stdout when the launcher asked for it; otherwise a no-op. */
  signalLauncher(signal: LauncherSignal): void;
  platform: NodeJS.Platform;
  /** This Electron's ABI, platform and arch (`process.versions.modules`, …). */
  nativeTarget: NativeTarget;
  /** The better-sqlite3 package folder (resolved from the running bundle). */
  betterSqliteDir: string;
  fileExists(path: string): boolean;
  /** The arguments after Electron's own (`--port`, `--db`; unknown ones are ignored). */
  argv: string[];
  env: NodeJS.ProcessEnv;
}
