/**
 * Running Electron for `npm start` and waiting for its window. The main process reports in a
 * line on its stdout (src/host/launcher-signal.ts), which the launcher pipes, taking the
 * signal lines and passing every other line through. Until it says "window shown" the
 * launcher does not trust it: an Electron that exits, fails, or stays silent past the wait is
 * stopped, and `start` serves the dashboard headless instead. Never a process with no window
 * and no dashboard.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { LAUNCHER_SIGNAL_ENV, parseLauncherLine } from '../host/launcher-signal.js';

/** How long Electron gets to show its window (a cold start on a slow laptop takes seconds). */
export const DEFAULT_WINDOW_WAIT_MS = 20_000;
/** After SIGTERM, how long Electron gets to quit before SIGKILL. */
const KILL_GRACE_MS = 3000;
/** After Electron exits, how long its last stdout lines get to arrive. */
const STDOUT_DRAIN_MS = 1000;

/** How a launch ended up. */
export type LaunchOutcome =
  /** The window is up; `exited` resolves to Electron's exit code when the user quits. */
  | { kind: 'window'; url: string; exited: Promise<number> }
  /** Another instance had the window and focused it; nothing more to do. */
  | { kind: 'handed-over' }
  /** No window; Electron has been stopped (or never ran). `reason` is the rest of one line. */
  | { kind: 'fallback'; reason: string };

/** What to launch. */
export interface LaunchOptions {
  binary: string;
  /** The app folder Electron loads (holds package.json and out/main). */
  appRoot: string;
  argv: string[];
  env: NodeJS.ProcessEnv;
  waitMs: number;
  /** Where Electron's own stdout lines go (the signal lines are taken out). */
  stdout: NodeJS.WritableStream;
}

/** `$MCPULSE_ELECTRON_WAIT_MS` when it is a positive whole number, else the default. */
export function windowWaitMs(env: NodeJS.ProcessEnv): number {
  const ms = Number(env.MCPULSE_ELECTRON_WAIT_MS);
  return Number.isInteger(ms) && ms > 0 ? ms : DEFAULT_WINDOW_WAIT_MS;
}

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`;

/** Resolves with the exit code once `child` has exited (a signal counts as 1). */
function exitOf(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  if (child.signalCode !== null) return Promise.resolve(1);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

/** SIGTERM, then SIGKILL if it lingers; resolves once it is gone. */
async function stop(child: ChildProcess): Promise<void> {
  const exited = exitOf(child);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/** Spawns Electron and waits for its window (or its failure, exit or silence). */
export function launchElectron(options: LaunchOptions): Promise<LaunchOutcome> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(options.binary, [options.appRoot, ...options.argv], {
        stdio: ['inherit', 'pipe', 'inherit'],
        // ELECTRON_RUN_AS_NODE, set in the environment, would make Electron a plain Node and
        // never a window.
        env: { ...options.env, ELECTRON_RUN_AS_NODE: undefined, [LAUNCHER_SIGNAL_ENV]: '1' },
      });
    } catch (error) {
      resolve({ kind: 'fallback', reason: `Electron could not be run: ${String(error)}` });
      return;
    }
    const exited = exitOf(child);
    let settled = false;
    let failure: string | undefined;
    const settle = (outcome: LaunchOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      void stop(child).then(() =>
        resolve({
          kind: 'fallback',
          reason: `Electron showed no window within ${seconds(options.waitMs)}, so it was stopped`,
        }),
      );
    }, options.waitMs);
    createInterface({ input: child.stdout!, crlfDelay: Infinity }).on('line', (line) => {
      const signal = parseLauncherLine(line);
      if (!signal) options.stdout.write(`${line}\n`);
      else if (signal.type === 'mcpulse:window-shown')
        settle({ kind: 'window', url: signal.url, exited });
      else if (signal.type === 'mcpulse:handed-over') settle({ kind: 'handed-over' });
      else failure = signal.message;
    });
    child.once('error', (error) =>
      settle({ kind: 'fallback', reason: `Electron could not be run (${error.message})` }),
    );
    const stdoutClosed = new Promise<void>((resolve) => child.stdout!.once('close', resolve));
    child.once('exit', (code, signal) => {
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      // 'exit' can come before the last lines are read: a signal written just before exiting
      // (handed over, failed) must still count. Bounded, since a lingering Chromium helper
      // may hold the pipe open.
      const drained = new Promise((resolve) => setTimeout(resolve, STDOUT_DRAIN_MS).unref());
      void Promise.race([stdoutClosed, drained]).then(() =>
        settle({
          kind: 'fallback',
          reason: failure
            ? `Electron failed to start: ${failure}`
            : `Electron ${how} before showing a window`,
        }),
      );
    });
  });
}
