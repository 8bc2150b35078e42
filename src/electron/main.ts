/**
 * The Electron shell: a thin window around the same server `mcpulse-devtools serve` runs.
 * Everything that can be decided without Electron lives in plain modules (policy.ts, the
 * server, the store) and is tested there.
 */
import { app, BrowserWindow, dialog, session, shell } from 'electron';
import { join } from 'node:path';
import { defaultPort } from '../host/paths.js';
import { PortInUseError, startServer, type RunningServer } from '../server/index.js';
import { openDbForCli } from '../host/open-db.js';
import type { Store } from '../store/index.js';
import { allowPermission, linkDisposition, SECURE_WEB_PREFERENCES } from './policy.js';

let server: RunningServer | undefined;
let store: Store | undefined;
let win: BrowserWindow | undefined;

/** One app per user: a second launch focuses the first window instead. */
function setupSingleInstance(): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  return true;
}

/** Every web contents, now and later: no navigation away, no new windows, no permissions. */
function setupContentGuards(appOrigin: string): void {
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) =>
    callback(allowPermission(permission)),
  );
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (linkDisposition(url, appOrigin) !== 'in-app') event.preventDefault();
      if (linkDisposition(url, appOrigin) === 'external') void shell.openExternal(url);
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (linkDisposition(url, appOrigin) === 'external') void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}

/** Starts the embedded server on the usual port, so SDKs at localhost:7857 just work. */
async function setupServer(): Promise<string> {
  // The same checks as `serve`: one line on a locked, read-only, full or corrupted file, and
  // refusal when another mcpulse-devtools already serves this database.
  store = openDbForCli(join(app.getPath('userData'), 'devtools.db'), {
    instanceLock: true,
    backgroundCheckpoints: true,
    deferDerived: true,
  });
  try {
    server = await startServer({ store, port: defaultPort() });
    return server.url;
  } catch (error) {
    if (error instanceof PortInUseError) {
      dialog.showErrorBox('MCPulse Devtools', error.message);
      app.exit(1);
    }
    throw error;
  }
}

function createWindow(url: string): void {
  win = new BrowserWindow({
    width: 1440,
    height: 920,
    minWidth: 900,
    minHeight: 600,
    title: 'MCPulse Devtools',
    backgroundColor: '#0f1115',
    show: false,
    // No preload (electron.vite.config.ts builds none): the page talks HTTP to its own origin
    // and needs no bridge to Node.
    webPreferences: SECURE_WEB_PREFERENCES,
  });
  win.once('ready-to-show', () => win?.show());
  win.on('closed', () => (win = undefined));
  void win.loadURL(url);
}

if (setupSingleInstance()) {
  app.whenReady().then(
    async () => {
      const url = await setupServer();
      setupContentGuards(url);
      createWindow(url);
      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0) createWindow(url);
      });
    },
    (error: unknown) => {
      dialog.showErrorBox(
        'MCPulse Devtools',
        error instanceof Error ? error.message : String(error),
      );
      app.exit(1);
    },
  );
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', () => {
    void server?.close();
    store?.close();
  });
}
