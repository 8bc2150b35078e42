/** Types for scripts/after-pack.mjs (electron-builder's afterPack hook). */
import type { ElectronVersions } from './electron-native.mjs';

export interface PackContext {
  appOutDir: string;
  electronPlatformName: string;
  arch: number;
  packager: {
    projectDir: string;
    config: { electronVersion?: string | null };
    getResourcesDir(appOutDir: string): string;
  };
}
export function packagedPlan(context: PackContext): {
  root: string;
  versions: ElectronVersions;
  dest: string;
  native: boolean;
};
export default function afterPack(context: PackContext): Promise<void>;
