/**
 * The main process's start-up as one function over an injected {@link DesktopSurface}, so
 * every path — the window shown, the ABI error, a locked database, a taken port — runs in
 * tests without Electron. Every failure ends the same way: the message in a dialog (or on
 * stderr where no dialog can appear), the launcher told, and a non-zero exit. Never a process
 * with no window.
 */
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDbForCli } from '../host/open-db.js';
import { defaultPort } from '../host/paths.js';
import { serverToken } from '../host/token.js';
import { tokenCookieName } from '../shared/owner-token.js';
import { identifyPortHolder, type PortHolder } from '../host/port-holder.js';
import { PortInUseError, startServer, type RunningServer } from '../server/index.js';
import { probeNativeBinding, useNativeBinding, type Store } from '../store/index.js';
import { resolveNativeBinding } from './native-binding.js';
import { describeStartupError, NativeModuleError } from './startup-errors.js';
import type { DesktopSurface, DesktopWindow } from './surface.js';
import { installMenu, openDashboardWindow, type WindowTarget } from './window.js';

/** The dialog's title for every start-up failure. */
export const FAILURE_TITLE = 'MCPulse Devtools could not start';

/** A desktop app that came up: its server, store and window. */
export interface DesktopSession {
  server: RunningServer;
  store: Store;
  window(): DesktopWindow | undefined;
}

/** Where the app serves from: `--port`/`--db` (as `serve` takes them), else the defaults. */
export function desktopOptions(
  argv: string[],
  env: NodeJS.ProcessEnv,
  userData: string,
): { port: number; dbPath: string; token?: string } {
  const { values } = parseArgs({
    args: argv,
    options: { port: { type: 'string' }, db: { type: 'string' }, token: { type: 'string' } },
    strict: false,
    allowPositionals: true,
  });
  const port = values.port === undefined ? defaultPort(env) : Number(values.port);
  if (typeof values.port === 'boolean' || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port: expected a port number (0-65535), received '${String(values.port)}'`);
  const db = typeof values.db === 'string' ? values.db : env.MCPULSE_DEVTOOLS_DB;
  const dbPath = db || join(userData, 'devtools.db');
  return typeof values.token === 'string'
    ? { port, dbPath, token: values.token }
    : { port, dbPath };
}

/** Ends a failed start-up: said once, shown where it can be, exit 1. */
function fail(surface: DesktopSurface, message: string): void {
  surface.writeStderr(`mcpulse-devtools: ${message}\n`);
  if (surface.canShowDialogs) surface.dialog.showErrorBox(FAILURE_TITLE, message);
  surface.signalLauncher({ type: 'mcpulse:startup-failed', message });
  surface.app.exit(1);
}

/** Opens the database and binds the port; a taken port is identified before rethrowing. */
async function serveDashboard(
  port: number,
  dbPath: string,
  token: string,
  noteHolder: (holder: PortHolder) => void,
  tell: (line: string) => void,
): Promise<{ store: Store; server: RunningServer }> {
  // The same checks as `serve`: one line for a locked, read-only, full or corrupted file,
  // and refusal when another mcpulse-devtools already serves this database.
  const store = openDbForCli(dbPath, {
    instanceLock: true,
    backgroundCheckpoints: true,
    deferDerived: true,
    tell,
  });
  try {
    return { store, server: await startServer({ store, port, token }) };
  } catch (error) {
    store.close();
    if (error instanceof PortInUseError) noteHolder(await identifyPortHolder(port, 1500, token));
    throw error;
  }
}

/**
 * Starts the desktop app: single instance, native SQLite for this Electron, the server, the
 * window. Resolves to the session, or `null` when this launch ends here (a second instance
 * handing over to the first, or a failure already reported and exited).
 */
export async function startDesktop(surface: DesktopSurface): Promise<DesktopSession | null> {
  const { app } = surface;
  if (!app.requestSingleInstanceLock()) {
    // The first instance gets 'second-instance' and focuses its window.
    surface.signalLauncher({ type: 'mcpulse:handed-over' });
    app.quit();
    return null;
  }
  let win: DesktopWindow | undefined;
  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  let port = defaultPort(surface.env);
  let portHolder: PortHolder | undefined;
  try {
    await app.whenReady();
    const options = desktopOptions(surface.argv, surface.env, app.getPath('userData'));
    port = options.port;
    const binding = resolveNativeBinding(
      surface.betterSqliteDir,
      surface.nativeTarget,
      surface.fileExists,
    );
    useNativeBinding(binding);
    try {
      probeNativeBinding();
    } catch (error) {
      throw new NativeModuleError(binding, error);
    }
    // The same token as `serve` and every client (a bad token file stops here, said in one line).
    const token = serverToken(options.token, surface.env);
    const { store, server } = await serveDashboard(
      port,
      options.dbPath,
      token,
      (holder) => {
        portHolder = holder;
      },
      (line) => surface.writeStderr(line),
    );
    const target: WindowTarget = {
      url: server.url,
      port: server.info.port,
      dataFolder: dirname(options.dbPath),
    };
    const onLoadFailure = (error: unknown): void =>
      fail(surface, `the dashboard at ${server.url} would not load: ${String(error)}`);
    surface.guardContents(server.url);
    // The window's session carries the token as the printed link's cookie would: the user
    // never sees it, and nothing else on the machine can read the session's cookies.
    await surface.setCookie({
      url: server.url,
      name: tokenCookieName(server.info.port),
      value: token,
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
    });
    installMenu(surface, target, () => win);
    const openWindow = (): void => {
      const opened = openDashboardWindow(surface, target, onLoadFailure);
      opened.on('closed', () => {
        if (win === opened) win = undefined;
      });
      win = opened;
    };
    openWindow();
    app.on('activate', () => {
      // macOS keeps the app running with no window; clicking the dock icon opens one again.
      if (!win) openWindow();
    });
    app.on('window-all-closed', () => {
      if (surface.platform !== 'darwin') app.quit();
    });
    app.on('will-quit', () => {
      void server.close();
      store.close();
    });
    return { server, store, window: () => win };
  } catch (error) {
    fail(surface, describeStartupError(error, { portHolder, port }));
    return null;
  }
}
