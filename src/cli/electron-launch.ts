/**
 * How `npm start` decides between the Electron window and the headless dashboard. Plain Node,
 * no `electron` import (importing it would just return the binary's path, and tests must never
 * depend on that binary): we read the path the electron package records instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root (two folders above dist/cli/*.js or src/cli/*.ts). */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The Electron binary installed under `root`, or why there is none. The electron package
 * writes `path.txt` once its postinstall has downloaded the binary.
 */
export function findElectronBinary(
  root: string = PACKAGE_ROOT,
): { path: string } | { missing: string } {
  const pkgDir = join(root, 'node_modules', 'electron');
  if (!existsSync(pkgDir)) return { missing: 'the electron package is not installed' };
  const pathFile = join(pkgDir, 'path.txt');
  if (!existsSync(pathFile)) return { missing: 'the Electron binary was never downloaded' };
  const binary = join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { path: binary } : { missing: `no Electron binary at ${binary}` };
}

/** On Linux a window needs X11 or Wayland; elsewhere there is always a desktop. */
export function displayProblem(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): string | null {
  if (platform !== 'linux') return null;
  return env.DISPLAY || env.WAYLAND_DISPLAY
    ? null
    : 'no display (DISPLAY and WAYLAND_DISPLAY are unset)';
}

/** The built Electron entry, which must exist before launching. */
export function electronEntryProblem(root: string = PACKAGE_ROOT): string | null {
  return existsSync(join(root, 'out', 'main', 'index.js'))
    ? null
    : 'the app is not built (run npm run build)';
}
