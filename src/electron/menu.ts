/**
 * The application menu as data: a pure function of the platform and the actions, so its
 * shape is tested in Node and main.ts only hands it to `Menu.buildFromTemplate`. The entries
 * are structurally Electron's `MenuItemConstructorOptions` (a subset), without importing it.
 */

/** One menu entry: a command, a built-in role, a separator or a submenu. */
export interface MenuEntry {
  label?: string;
  role?:
    | 'appMenu'
    | 'editMenu'
    | 'windowMenu'
    | 'quit'
    | 'close'
    | 'copy'
    | 'paste'
    | 'selectAll'
    | 'resetZoom'
    | 'zoomIn'
    | 'zoomOut'
    | 'togglefullscreen';
  type?: 'separator' | 'normal' | 'submenu';
  accelerator?: string;
  click?: () => void;
  submenu?: MenuEntry[];
}

/** What the menu's own commands do; main.ts binds them to the window and the OS. */
export interface MenuActions {
  copyEndpointUrl(): void;
  openDataFolder(): void;
  reload(): void;
  toggleDevTools(): void;
}

/** The menu labels the tests and docs refer to. */
export const MENU_LABELS = {
  copyEndpointUrl: 'Copy endpoint URL',
  openDataFolder: 'Open data folder',
  reload: 'Reload',
  toggleDevTools: 'Toggle DevTools',
} as const;

/**
 * The menu bar: on macOS the app menu first (its convention: About, Hide, Quit), elsewhere a
 * File menu with Quit. Reload and DevTools use the accelerators every Chromium user knows.
 */
export function buildMenuTemplate(platform: NodeJS.Platform, actions: MenuActions): MenuEntry[] {
  const mac = platform === 'darwin';
  const file: MenuEntry = {
    label: 'File',
    submenu: [
      {
        label: MENU_LABELS.copyEndpointUrl,
        accelerator: 'CmdOrCtrl+Shift+C',
        click: actions.copyEndpointUrl,
      },
      { label: MENU_LABELS.openDataFolder, click: actions.openDataFolder },
      { type: 'separator' },
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const view: MenuEntry = {
    label: 'View',
    submenu: [
      { label: MENU_LABELS.reload, accelerator: 'CmdOrCtrl+R', click: actions.reload },
      {
        label: MENU_LABELS.toggleDevTools,
        accelerator: mac ? 'Alt+Cmd+I' : 'Ctrl+Shift+I',
        click: actions.toggleDevTools,
      },
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  return [
    ...(mac ? [{ role: 'appMenu' } as const] : []),
    file,
    { role: 'editMenu' },
    view,
    { role: 'windowMenu' },
  ];
}

/** The window title: the product and the port SDKs must send to. */
export const windowTitle = (port: number): string => `MCPulse Devtools — localhost:${port}`;
