/**
 * Runs the real `mcpulse-devtools` CLI as a child process (from source through tsx, so tests
 * need no build step).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { TOKEN_ENV_VARS } from './token.js';

export const CLI = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');

/**
 * Spawns the CLI; stdout/stderr are collected on the returned handle. It gets this test file's
 * owner token in $MCPULSE_DEVTOOLS_TOKEN (a test may override or remove it in `env`).
 */
export function spawnCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): ChildProcess & { out: () => string; err: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { ...process.env, ...TOKEN_ENV_VARS, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return Object.assign(child, { out: () => out, err: () => err });
}

/** Runs the CLI to completion. */
export async function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(args, options.env);
  child.stdin!.end(options.input ?? '');
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout: child.out(), stderr: child.err() };
}

/** Waits until `predicate(stdout)` holds, or fails after `ms`. */
export async function waitForOutput(
  child: ReturnType<typeof spawnCli>,
  predicate: (out: string) => boolean,
  ms = 15_000,
): Promise<string> {
  const start = Date.now();
  while (!predicate(child.out())) {
    if (child.exitCode !== null)
      throw new Error(`exited ${child.exitCode}: ${child.out()}${child.err()}`);
    if (Date.now() - start > ms) throw new Error(`timed out: ${child.out()}${child.err()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return child.out();
}
