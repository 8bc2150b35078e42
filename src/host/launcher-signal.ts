/**
 * How the Electron main process tells `mcpulse-devtools start` (the launcher) how start-up went.
 *
 * One line on Electron's stdout: {@link SIGNAL_PREFIX} then the message as JSON. The launcher
 * pipes Electron's stdout, takes these lines and passes every other line through to its own
 * stdout; it sets {@link LAUNCHER_SIGNAL_ENV} so that the main process writes them only then
 * (a packaged app started from the desktop, or `electron .`, writes none).
 *
 * Why a line on stdout and not Node's IPC channel (`stdio: [..., 'ipc']`, `process.send`):
 * the channel is an extra inherited file descriptor, and on Linux Electron has had releases
 * where that descriptor broke Chromium's child processes (windows that never load:
 * electron/electron#17044, #21845). A stdout pipe is what every Electron launcher already
 * relies on, on every platform.
 *
 * The main process sends exactly one message: {@link WindowShown} once the window is on
 * screen, {@link StartupFailed} just before it exits non-zero, or {@link HandedOver} when
 * another instance already has the window (it focuses that one; this launch quits).
 */

/** Set to `1` in Electron's environment by the launcher: "write your signal line". */
export const LAUNCHER_SIGNAL_ENV = 'MCPULSE_LAUNCHER_SIGNAL';

/** What starts a signal line; nothing Electron or Chromium prints starts like this. */
export const SIGNAL_PREFIX = '@mcpulse-launcher ';

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

/** The line the main process writes for `signal`. */
export const formatLauncherSignal = (signal: LauncherSignal): string =>
  `${SIGNAL_PREFIX}${JSON.stringify(signal)}\n`;

/** The signal on one stdout line (without its newline), or `null` for any other line. */
export function parseLauncherLine(line: string): LauncherSignal | null {
  if (!line.startsWith(SIGNAL_PREFIX)) return null;
  try {
    return parseLauncherSignal(JSON.parse(line.slice(SIGNAL_PREFIX.length)));
  } catch {
    return null;
  }
}

/** Checks a decoded message, or `null` when it is not one of ours. */
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
