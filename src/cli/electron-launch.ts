/**
 * How `npm start` decides between the Electron window and the headless dashboard: which
 * Electron binary, and whether it can run here. Plain Node, no `electron` import (importing it
 * would just return the binary's path, and tests must never depend on that binary): we read
 * the path the electron package records instead.
 */
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export { displayProblem } from '../host/display.js';

/** The package root (two folders above dist/cli/*.js or src/cli/*.ts). */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** An Electron binary to run, or why there is none. */
export type ElectronBinary = { path: string } | { missing: string };

/**
 * The Electron binary installed under `root`, or why there is none. The electron package
 * writes `path.txt` once its postinstall has downloaded the binary.
 */
export function findElectronBinary(root: string = PACKAGE_ROOT): ElectronBinary {
  const pkgDir = join(root, 'node_modules', 'electron');
  if (!existsSync(pkgDir)) return { missing: 'the electron package is not installed' };
  const pathFile = join(pkgDir, 'path.txt');
  if (!existsSync(pathFile)) return { missing: 'the Electron binary was never downloaded' };
  const binary = join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { path: binary } : { missing: `no Electron binary at ${binary}` };
}

/** A binary the user named: it must be an executable file. */
function checkGivenBinary(path: string, from: string): ElectronBinary {
  const absolute = resolve(path);
  try {
    if (!statSync(absolute).isFile())
      return { missing: `${absolute} (from ${from}) is not a file` };
    accessSync(absolute, constants.X_OK);
  } catch (error) {
    const code = (error as { code?: string }).code;
    return {
      missing:
        code === 'EACCES'
          ? `${absolute} (from ${from}) is not executable`
          : `no Electron binary at ${absolute} (from ${from})`,
    };
  }
  return { path: absolute };
}

/**
 * The Electron to launch: `--electron PATH`, else `$MCPULSE_ELECTRON` (a distribution's own
 * Electron: Arch, Fedora, Nix), else the one the electron package downloaded.
 */
export function chooseElectronBinary(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  root: string = PACKAGE_ROOT,
): ElectronBinary {
  if (flag !== undefined) return checkGivenBinary(flag, '--electron');
  if (env.MCPULSE_ELECTRON) return checkGivenBinary(env.MCPULSE_ELECTRON, 'MCPULSE_ELECTRON');
  return findElectronBinary(root);
}

/** The built Electron entry, which must exist before launching. */
export function electronEntryProblem(root: string = PACKAGE_ROOT): string | null {
  return existsSync(join(root, 'out', 'main', 'index.js'))
    ? null
    : 'the app is not built (run npm run build)';
}
