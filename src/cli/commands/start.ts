import { spawn } from 'node:child_process';
import {
  displayProblem,
  electronEntryProblem,
  findElectronBinary,
  PACKAGE_ROOT,
} from '../electron-launch.js';
import type { CliIO, Command } from '../io.js';
import { command as serve } from './serve.js';

/** An Electron that dies this fast never showed a window: fall back to the browser dashboard. */
const EARLY_EXIT_MS = 4000;

/** Launches Electron; resolves to its exit code, or `'failed'` if it died at start-up. */
function launchElectron(binary: string, argv: string[], io: CliIO): Promise<number | 'failed'> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(binary, [PACKAGE_ROOT, ...argv], { stdio: 'inherit', env: io.env });
    child.once('error', () => resolve('failed'));
    child.once('exit', (code) =>
      resolve(code !== 0 && Date.now() - started < EARLY_EXIT_MS ? 'failed' : (code ?? 0)),
    );
  });
}

export const command: Command = {
  summary: 'open the desktop app (or, where Electron cannot start, serve the dashboard headless)',
  async run(argv, io) {
    if (argv.includes('--help') || argv.includes('-h')) {
      io.stdout.write(
        'usage: mcpulse-devtools start [serve options]\n\nOpens the Electron app; falls back to `serve` where it cannot.\n',
      );
      return 0;
    }
    const binary = findElectronBinary();
    const problem =
      'missing' in binary ? binary.missing : (displayProblem(io.env) ?? electronEntryProblem());
    if (problem === null && 'path' in binary) {
      const result = await launchElectron(binary.path, argv, io);
      if (result !== 'failed') return result;
      io.stderr.write('Electron could not start: serving the dashboard in your browser instead\n');
    } else {
      io.stderr.write(
        `Electron cannot start here (${problem}): serving the dashboard in your browser instead\n`,
      );
    }
    return serve.run(argv, io);
  },
};
