import {
  chooseElectronBinary,
  displayProblem,
  electronEntryProblem,
  PACKAGE_ROOT,
} from '../electron-launch.js';
import { launchElectron, windowWaitMs } from '../electron-spawn.js';
import { UsageError, type CliIO, type Command } from '../io.js';
import { command as serve } from './serve.js';
import { prog } from '../invocation.js';

const USAGE = `usage: ${prog()} start [--electron PATH] [serve options]

Opens the desktop app (Electron). Where it cannot start — no Electron binary, no display, or
no window within 20 s ($MCPULSE_ELECTRON_WAIT_MS) — says why in one line and runs \`serve\`
with the same options instead.

  --electron PATH   the Electron binary to use (default $MCPULSE_ELECTRON, else the one the
                    electron package downloaded)
  --port N, --db PATH   as for serve; the app uses them too
`;

/** Splits `--electron PATH` / `--electron=PATH` off the arguments the app and serve share. */
export function takeElectronFlag(argv: string[]): { electron?: string; rest: string[] } {
  const rest: string[] = [];
  let electron: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--electron') {
      electron = argv[++i];
      if (electron === undefined || electron.startsWith('--'))
        throw new UsageError('--electron: expected the path of an Electron binary');
    } else if (arg.startsWith('--electron=')) electron = arg.slice('--electron='.length);
    else rest.push(arg);
  }
  return electron === undefined ? { rest } : { electron, rest };
}

/** Says, in one line, why there is no window, and serves the dashboard headless instead. */
function serveInstead(why: string, rest: string[], io: CliIO): Promise<number> {
  io.stderr.write(`${why}: serving the dashboard in your browser instead\n`);
  return serve.run(rest, io);
}

export const command: Command = {
  summary: 'open the desktop app (or, where Electron cannot start, serve the dashboard headless)',
  async run(argv, io) {
    if (argv.includes('--help') || argv.includes('-h')) {
      io.stdout.write(USAGE);
      return 0;
    }
    const { electron, rest } = takeElectronFlag(argv);
    const binary = chooseElectronBinary(electron, io.env);
    const problem =
      'missing' in binary ? binary.missing : (displayProblem(io.env) ?? electronEntryProblem());
    if (problem !== null || !('path' in binary))
      return serveInstead(`Electron cannot start here (${problem})`, rest, io);
    const outcome = await launchElectron({
      binary: binary.path,
      appRoot: PACKAGE_ROOT,
      argv: rest,
      env: io.env,
      waitMs: windowWaitMs(io.env),
      stdout: io.stdout,
    });
    if (outcome.kind === 'window') return outcome.exited;
    if (outcome.kind === 'handed-over') {
      io.stdout.write('MCPulse Devtools is already open: its window was brought to the front\n');
      return 0;
    }
    return serveInstead(outcome.reason, rest, io);
  },
};
