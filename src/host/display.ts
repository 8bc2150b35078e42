/**
 * Whether a window can appear at all: the launcher's first question, and the main process's
 * before it shows a dialog.
 */

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
