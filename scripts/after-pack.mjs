// @ts-check
/**
 * electron-builder's `afterPack` hook: puts better-sqlite3 built for the packaged Electron —
 * for the target's platform and arch, which need not be this machine's — into the app's
 * unpacked `node_modules/better-sqlite3/build/electron-v<abi>-<platform>-<arch>/`, the folder
 * the main process loads it from (src/electron/native-binding.ts).
 *
 * Why not electron-builder's own `npmRebuild`: it rebuilds in place, in the project's
 * node_modules, leaving the CLI with an addon its Node cannot load after every
 * `npm run package`. This way the checkout's Node build is never touched.
 *
 * A package that could not get its build fails here, rather than shipping an app that cannot
 * open its database.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findElectronForInstall, installElectronBuild, nativeTarget } from './electron-native.mjs';

/** electron-builder's `Arch` enum, by value. */
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

/**
 * @typedef {{
 *   appOutDir: string,
 *   electronPlatformName: string,
 *   arch: number,
 *   packager: { projectDir: string, config: { electronVersion?: string | null }, getResourcesDir(appOutDir: string): string },
 * }} PackContext
 */

/**
 * What the package needs: the target's Electron version, ABI, platform and arch, and where
 * the addon goes inside the packaged app.
 * @param {PackContext} context
 */
export function packagedPlan(context) {
  const root = context.packager.projectDir;
  const requireHere = createRequire(join(root, 'package.json'));
  const electron =
    context.packager.config.electronVersion ??
    JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8'))
      .version;
  const arch = ARCH_NAMES[context.arch];
  if (!arch || arch === 'universal')
    throw new Error(
      `after-pack: no better-sqlite3 build for arch ${arch ?? context.arch}: package one arch at a time`,
    );
  const platform = context.electronPlatformName === 'mas' ? 'darwin' : context.electronPlatformName;
  // node-abi (prebuild-install's own table) knows every Electron release's NODE_MODULE_VERSION.
  const modules = String(requireHere('node-abi').getAbi(electron, 'electron'));
  const versions = { electron, modules, platform, arch };
  const sqliteDir = join(
    context.packager.getResourcesDir(context.appOutDir),
    'app.asar.unpacked',
    'node_modules',
    'better-sqlite3',
  );
  const dest = join(sqliteDir, 'build', nativeTarget(versions).folder, 'better_sqlite3.node');
  const native = platform === process.platform && arch === process.arch;
  return { root, versions, dest, native };
}

/** @param {PackContext} context */
export default async function afterPack(context) {
  const { root, versions, dest, native } = packagedPlan(context);
  // Only an Electron of this machine's platform and arch can load (verify) the build, and only
  // then can @electron/rebuild compile one if no prebuilt exists.
  const local = native ? findElectronForInstall(root, process.env) : { missing: 'cross-build' };
  const result = installElectronBuild({
    root,
    versions,
    dest,
    verifyWith: 'binary' in local ? local.binary : undefined,
    allowCompile: native,
  });
  if ('failed' in result)
    throw new Error(
      `after-pack: could not get better-sqlite3 for Electron ${versions.electron} ` +
        `(${versions.platform}-${versions.arch}): ${result.failed}`,
    );
  console.log(
    `after-pack: better-sqlite3 for Electron ${versions.electron} (ABI ${versions.modules}, ${versions.platform}-${versions.arch}) at ${dest} (${result.how})`,
  );
}
