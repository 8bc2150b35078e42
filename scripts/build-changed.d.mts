/** Types for scripts/build-changed.mjs (plain JavaScript so it runs before anything is built). */
export const APP_INPUT_DIRS: string[];
export const APP_INPUT_FILES: string[];
export const APP_OUTPUTS: string[];
export const APP_STAMP: string;
export const CORE_BUILD_INFO: string;
export function appInputFiles(root: string): string[];
export function appInputsHash(root: string): string;
export function appIsCurrent(root: string, hash?: string): boolean;
export function markBinsExecutable(root: string): void;
export function writeAppStamp(root: string, hash?: string): void;
export function buildChanged(options: {
  root: string;
  say?: (line: string) => void;
  tools?: { tscBuild: () => number; appBuild: () => number };
}): number;
