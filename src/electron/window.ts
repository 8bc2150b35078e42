/**
 * The dashboard window: opened at its remembered size and place, titled with the port, shown
 * once painted — and only then reported to the launcher as shown.
 */
import { join } from 'node:path';
import { buildMenuTemplate, windowTitle } from './menu.js';
import type { DesktopSurface, DesktopWindow } from './surface.js';
import { loadWindowState, MIN_SIZE, saveWindowState, WINDOW_STATE_FILE } from './window-state.js';

/** What the window shows and where the data lives (for the menu). */
export interface WindowTarget {
  url: string;
  port: number;
  dataFolder: string;
}

/**
 * Opens the window on `target.url`. `onFailure` gets a page that would not load, so start-up
 * can say so instead of leaving an empty window.
 */
export function openDashboardWindow(
  surface: DesktopSurface,
  target: WindowTarget,
  onFailure: (error: unknown) => void,
): DesktopWindow {
  const statePath = join(surface.app.getPath('userData'), WINDOW_STATE_FILE);
  const state = loadWindowState(surface.stateFile, statePath, surface.workAreas());
  const win = surface.createWindow({
    bounds: state.bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    title: windowTitle(target.port),
  });
  if (state.maximized) win.maximize();
  win.on('close', () =>
    saveWindowState(surface.stateFile, statePath, {
      bounds: win.getNormalBounds(),
      maximized: win.isMaximized(),
    }),
  );
  win.once('ready-to-show', () => {
    win.show();
    surface.signalLauncher({ type: 'mcpulse:window-shown', url: target.url });
  });
  win.loadURL(target.url).catch(onFailure);
  return win;
}

/** The menu bar, bound to `getWindow` (which may be gone: a closed window on macOS). */
export function installMenu(
  surface: DesktopSurface,
  target: WindowTarget,
  getWindow: () => DesktopWindow | undefined,
): void {
  surface.setApplicationMenu(
    buildMenuTemplate(surface.platform, {
      copyEndpointUrl: () => surface.copyText(target.url),
      openDataFolder: () => surface.openFolder(target.dataFolder),
      reload: () => getWindow()?.reload(),
      toggleDevTools: () => getWindow()?.toggleDevTools(),
    }),
  );
}
