/**
 * Running the CLI for the canonical tests: in this process through `main(argv, io)`, or as a
 * real child process through tsx.
 */
import { spawnSync } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/io.js';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs the CLI in this process; stdin is `input` (or a TTY-like empty stream when undefined). */
export async function run(
  argv: string[],
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const collect = () => {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    return { stream, text: () => text };
  };
  const stdout = collect();
  const stderr = collect();
  const stdin =
    input === undefined
      ? Object.assign(Readable.from([]), { isTTY: true })
      : Readable.from([Buffer.from(input, 'utf8')]);
  const io: CliIO = { stdout: stdout.stream, stderr: stderr.stream, stdin, env: {} };
  const code = await main(argv, io);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** Runs the CLI as a real process: `node --import tsx src/cli/main.ts …`. */
export function spawnCli(
  argv: string[],
  input = '',
): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...argv], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
