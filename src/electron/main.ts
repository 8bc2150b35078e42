/**
 * The Electron shell: adapts Electron's `app`, `dialog`, `BrowserWindow`, `Menu`, `clipboard`
 * and `shell` to the plain {@link DesktopSurface} and hands it to {@link startDesktop}, where
 * every decision lives (and is tested without Electron). Nothing else belongs here.
 */
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  Menu,
  screen,
  session,
  shell,
  type MenuItemConstructorOptions,
} from 'electron';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { displayProblem } from '../host/display.js';
import {
  formatLauncherSignal,
  LAUNCHER_SIGNAL_ENV,
  type LauncherSignal,
} from '../host/launcher-signal.js';
import { allowPermission, linkDisposition, SECURE_WEB_PREFERENCES } from './policy.js';
import { startDesktop } from './startup.js';
import type { DesktopSurface, DesktopWindow, WindowOptions } from './surface.js';

/** A BrowserWindow behind the small interface start-up uses. */
function createWindow({ bounds, minWidth, minHeight, title }: WindowOptions): DesktopWindow {
  const win = new BrowserWindow({
    ...bounds,
    minWidth,
    minHeight,
    title,
    backgroundColor: '#0f1115',
    show: false,
    // No preload (electron.vite.config.ts builds none): the page talks HTTP to its own origin
    // and needs no bridge to Node.
    webPreferences: SECURE_WEB_PREFERENCES,
  });
  // The page's <title> would replace ours; the port in the title is the point.
  win.on('page-title-updated', (event) => event.preventDefault());
  return {
    show: () => win.show(),
    focus: () => win.focus(),
    restore: () => win.restore(),
    maximize: () => win.maximize(),
    isMinimized: () => win.isMinimized(),
    isMaximized: () => win.isMaximized(),
    getNormalBounds: () => win.getNormalBounds(),
    loadURL: (url) => win.loadURL(url),
    reload: () => win.webContents.reload(),
    toggleDevTools: () => win.webContents.toggleDevTools(),
    once: (event, listener) => win.once(event, listener),
    on: (event, listener) => win.on(event as 'close', listener),
  };
}

/** Every web contents, now and later: no navigation away, no new windows, no permissions. */
function guardContents(appOrigin: string): void {
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) =>
    callback(allowPermission(permission)),
  );
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      const disposition = linkDisposition(url, appOrigin);
      if (disposition !== 'in-app') event.preventDefault();
      if (disposition === 'external') void shell.openExternal(url);
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (linkDisposition(url, appOrigin) === 'external') void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}

// A launcher that went away (its terminal closed) leaves a broken pipe: never a crash for it.
process.stdout.on('error', () => {});

/** One line on stdout, only when the launcher asked for it (src/host/launcher-signal.ts). */
function signalLauncher(signal: LauncherSignal): void {
  if (process.env[LAUNCHER_SIGNAL_ENV] === '1') process.stdout.write(formatLauncherSignal(signal));
}

const surface: DesktopSurface = {
  app,
  dialog,
  createWindow,
  setApplicationMenu: (template) =>
    Menu.setApplicationMenu(Menu.buildFromTemplate(template as MenuItemConstructorOptions[])),
  guardContents,
  setCookie: (cookie) => session.defaultSession.cookies.set(cookie),
  copyText: (text) => clipboard.writeText(text),
  openFolder: (path) => void shell.openPath(path),
  workAreas: () => {
    const primary = screen.getPrimaryDisplay();
    const others = screen.getAllDisplays().filter((d) => d.id !== primary.id);
    return [primary, ...others].map((d) => d.workArea);
  },
  stateFile: {
    readText: (path) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined),
    writeText: (path, text) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    },
  },
  canShowDialogs: displayProblem(process.env) === null,
  writeStderr: (text) => void process.stderr.write(text),
  signalLauncher,
  platform: process.platform,
  nativeTarget: { abi: process.versions.modules, platform: process.platform, arch: process.arch },
  betterSqliteDir: dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')),
  fileExists: existsSync,
  // Electron's argv: [binary, app folder, …ours] from a checkout, [binary, …ours] packaged.
  argv: process.argv.slice(app.isPackaged ? 1 : 2),
  env: process.env,
};

// startDesktop reports its own failures; this is only for a bug in that reporting itself.
startDesktop(surface).catch((error: unknown) => {
  process.stderr.write(`mcpulse-devtools: ${String(error)}\n`);
  app.exit(1);
});
