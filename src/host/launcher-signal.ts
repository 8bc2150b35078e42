/**
 * How the Electron main process tells `mcpulse-devtools start` (the launcher) how start-up went.
 *
 * The launcher spawns Electron with an IPC channel (`stdio: [..., 'ipc']`), which Node and
 * Electron's main process both expose as `process.send`. The main process sends exactly one
 * message: {@link WindowShown} once the window is on screen, {@link StartupFailed} just
 * before it exits non-zero, or {@link HandedOver} when another instance already has the
 * window (it focuses that one; this launch quits). Anything else on the channel is ignored. A main process started
 * without the launcher (a packaged app, `electron .`) has no `process.send` and sends nothing.
 */

/** The window is visible: the launcher stops waiting and leaves the user with it. */
export interface WindowShown {
  type: 'mcpulse:window-shown';
  /** The dashboard URL the window loaded. */
  url: string;
}

/** Start-up failed; the same message was shown in a dialog (or on stderr). */
export interface StartupFailed {
  type: 'mcpulse:startup-failed';
  message: string;
}

/** The app is already open: its window was focused and this Electron quits. */
export interface HandedOver {
  type: 'mcpulse:handed-over';
}

/** One message from the main process to the launcher. */
export type LauncherSignal = WindowShown | StartupFailed | HandedOver;

/** Reads a message off the channel, or `null` when it is not one of ours. */
export function parseLauncherSignal(message: unknown): LauncherSignal | null {
  if (typeof message !== 'object' || message === null) return null;
  const m = message as Record<string, unknown>;
  if (m.type === 'mcpulse:window-shown' && typeof m.url === 'string')
    return { type: m.type, url: m.url };
  if (m.type === 'mcpulse:startup-failed' && typeof m.message === 'string')
    return { type: m.type, message: m.message };
  if (m.type === 'mcpulse:handed-over') return { type: m.type };
  return null;
}
