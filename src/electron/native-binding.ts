/**
 * Which `better_sqlite3.node` the Electron main process loads. npm builds better-sqlite3 for
 * the system Node (the CLI needs that one); Electron's Node has another NODE_MODULE_VERSION,
 * so the install step (scripts/electron-native.mjs) puts a build for Electron beside it, in
 * `build/electron-v<abi>-<platform>-<arch>/`. A packaged app has the same folder, filled for
 * the target by the packaging hook (scripts/after-pack.mjs), outside the asar archive.
 */
import { join, sep } from 'node:path';

/** The runtime a build is for. */
export interface NativeTarget {
  /** NODE_MODULE_VERSION, e.g. `'140'` (`process.versions.modules`). */
  abi: string;
  platform: NodeJS.Platform;
  arch: string;
}

/**
 * The folder (under better-sqlite3's `build/`) holding the Electron build for `target`. The
 * install step names it the same way (test/electron/native-install.test.ts checks both agree).
 */
export const electronBuildFolder = ({ abi, platform, arch }: NativeTarget): string =>
  `electron-v${abi}-${platform}-${arch}`;

/** Native files cannot be loaded from inside an asar archive: electron-builder unpacks them. */
export const unpackedPath = (path: string): string =>
  path.replace(`${sep}app.asar${sep}`, `${sep}app.asar.unpacked${sep}`);

/**
 * Where the addon for `target` is: the same place in a checkout and in a package, where
 * `betterSqliteDir` resolves inside `app.asar` and the file lies in `app.asar.unpacked`.
 */
export const nativeBindingPath = (betterSqliteDir: string, target: NativeTarget): string =>
  unpackedPath(join(betterSqliteDir, 'build', electronBuildFolder(target), 'better_sqlite3.node'));

/**
 * The addon to load, or `undefined` to let better-sqlite3 find its own (which, in a checkout
 * where the install step could not run, is the Node build — start-up then explains the ABI
 * error and how to fix it).
 */
export function resolveNativeBinding(
  betterSqliteDir: string,
  target: NativeTarget,
  exists: (path: string) => boolean,
): string | undefined {
  const path = nativeBindingPath(betterSqliteDir, target);
  return exists(path) ? path : undefined;
}
