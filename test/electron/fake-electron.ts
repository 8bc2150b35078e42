/**
 * Fake Electron binaries: small executable Node scripts that behave as a real main process
 * would towards the launcher (src/host/launcher-signal.ts: one line on stdout, when
 * MCPULSE_LAUNCHER_SIGNAL=1) — or fail to. Each also prints an ordinary line first, which the
 * launcher must pass through. Each records the
 * arguments it was given and its pid in `<dir>/<name>.json`, so tests can check what was
 * passed and that a stopped one is really gone.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What each fake does once started. */
export const FAKE_BEHAVIOURS = {
  /** Never signals and never exits: a main process stuck with no window. */
  hangs: 'setInterval(() => {}, 1000);',
  /** Dies at once, as Electron does with a missing library or a bad flag. */
  exitsAtOnce: 'process.exit(3);',
  /** Shows its window (tells the launcher), then quits 300 ms later as a user would. */
  showsWindow: `signal({ type: 'mcpulse:window-shown', url: 'http://localhost:7857' });
setTimeout(() => process.exit(0), 300);`,
  /** Reports a start-up failure (after its dialog) and exits 1 at once. */
  failsStartup: `signal({ type: 'mcpulse:startup-failed', message: 'database x is locked' });
process.exit(1);`,
  /** A second instance: hands over to the first and quits at once. */
  handsOver: `signal({ type: 'mcpulse:handed-over' });
process.exit(0);`,
} as const;

export type FakeBehaviour = keyof typeof FAKE_BEHAVIOURS;

/** A folder of fakes, removed by `cleanup`. */
export interface FakeElectrons {
  dir: string;
  /** Writes (once) and returns the path of an executable fake. */
  binary(behaviour: FakeBehaviour): string;
  /** What the fake recorded when it started, or `null` if it never ran. */
  recorded(behaviour: FakeBehaviour): { argv: string[]; pid: number } | null;
  cleanup(): void;
}

export function fakeElectrons(): FakeElectrons {
  const dir = mkdtempSync(join(tmpdir(), 'mcpulse-fake-electron-'));
  const record = (b: FakeBehaviour): string => join(dir, `${b}.json`);
  return {
    dir,
    binary(behaviour) {
      const path = join(dir, behaviour);
      if (!existsSync(path)) {
        writeFileSync(
          path,
          `#!/usr/bin/env node
require('node:fs').writeFileSync(${JSON.stringify(record(behaviour))}, JSON.stringify({ argv: process.argv.slice(2), pid: process.pid }));
const signal = (message) => {
  if (process.env.MCPULSE_LAUNCHER_SIGNAL === '1')
    process.stdout.write('@mcpulse-launcher ' + JSON.stringify(message) + '\\n');
};
console.log('[fake electron] ${behaviour} starting');
${FAKE_BEHAVIOURS[behaviour]}
`,
        );
        chmodSync(path, 0o755);
      }
      return path;
    },
    recorded(behaviour) {
      const file = record(behaviour);
      return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Whether a process is still running. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
