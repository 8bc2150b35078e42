/**
 * The shell's security decisions as plain functions — no `electron` import — so they are
 * unit-tested in Node, where the Electron binary cannot run.
 */

/** BrowserWindow webPreferences: a sandboxed page with no bridge to Node. */
export const SECURE_WEB_PREFERENCES = {
  sandbox: true,
  contextIsolation: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  spellcheck: false,
} as const;

/** May the window navigate to `target`? Only within the dashboard's own origin. */
export function isInAppNavigation(target: string, appOrigin: string): boolean {
  try {
    return new URL(target).origin === new URL(appOrigin).origin;
  } catch {
    return false;
  }
}

/**
 * What to do with a link the page tried to open: in-app URLs stay in the window, https links
 * go to the user's browser, everything else (file:, javascript:, custom schemes, plain http
 * to elsewhere) is dropped.
 */
export function linkDisposition(target: string, appOrigin: string): 'in-app' | 'external' | 'deny' {
  if (isInAppNavigation(target, appOrigin)) return 'in-app';
  try {
    return new URL(target).protocol === 'https:' ? 'external' : 'deny';
  } catch {
    return 'deny';
  }
}

/** Permission requests (camera, notifications, …): the dashboard needs none. */
export const allowPermission = (_permission: string): boolean => false;
