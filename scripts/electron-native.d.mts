/** Types for scripts/electron-native.mjs (plain JavaScript so it runs at install time). */
export interface ElectronVersions {
  electron: string;
  modules: string;
  platform: string;
  arch: string;
}
export function findElectronForInstall(
  root: string,
  env: NodeJS.ProcessEnv,
): { binary: string } | { missing: string };
export function downloadElectron(
  root: string,
  env: NodeJS.ProcessEnv,
): { downloaded: true } | { failed: string } | null;
export function probeElectron(binary: string): ElectronVersions;
export function nativeTarget(v: ElectronVersions): {
  folder: string;
  prebuildArgs: string[];
  rebuildArgs: string[];
};
export function run(argv: string[], env: NodeJS.ProcessEnv, say: (line: string) => void): number;
export function installElectronBuild(options: {
  root: string;
  versions: ElectronVersions;
  dest: string;
  verifyWith?: string;
  allowCompile: boolean;
}): { how: string } | { failed: string };
