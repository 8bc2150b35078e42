/**
 * Runs a real encoder over a batch of inputs in one process (one process per language, not per
 * input, so the whole cross-language check stays a few seconds), and says why when the
 * runtime is missing.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ENCODERS_DIR = path.dirname(fileURLToPath(import.meta.url));

/** A runtime on this machine, or why it is not usable. */
export type Runtime = { ok: true; version: string } | { ok: false; reason: string };

/** Whether `command` runs, with its version line (some runtimes print it to stderr). */
export function probe(command: string, args: string[]): Runtime {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  if (result.error)
    return {
      ok: false,
      reason: `${command} not found (${(result.error as NodeJS.ErrnoException).code ?? result.error.message})`,
    };
  if (result.status !== 0)
    return { ok: false, reason: `${command} ${args.join(' ')} exited ${result.status}` };
  const version = `${result.stdout}\n${result.stderr}`.trim().split('\n')[0] ?? '';
  return { ok: true, version };
}

/** Go builds into a cache and wants a GOPATH: give it both, however HOME is set up. */
function env(): NodeJS.ProcessEnv {
  const scratch = path.join(os.tmpdir(), 'mcpulse-encoders');
  mkdirSync(scratch, { recursive: true });
  return {
    ...process.env,
    GOCACHE: process.env.GOCACHE ?? path.join(scratch, 'go-cache'),
    GOPATH: process.env.GOPATH ?? path.join(scratch, 'go-path'),
  };
}

/**
 * Feeds `lines` (one per input, no newlines inside) to the encoder and returns its output
 * lines, each split on tabs: one cell per variant the script writes.
 */
export function runBatch(command: string, args: string[], lines: string[]): string[][] {
  const result = spawnSync(command, args, {
    cwd: ENCODERS_DIR,
    input: lines.join('\n') + '\n',
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    timeout: 180_000,
    env: env(),
  });
  if (result.error) throw result.error;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  const out = result.stdout.split('\n');
  out.pop(); // the final newline
  if (out.length !== lines.length) {
    throw new Error(
      `${command}: ${out.length} output lines for ${lines.length} inputs\n${result.stderr}`,
    );
  }
  return out.map((line) => line.split('\t'));
}

/** Hex of UTF-8 bytes, as the scripts print their output. */
export function utf8Hex(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex');
}

/** The text a script's hex cell decodes to (for readable failure messages). */
export function fromHex(cell: string): string {
  return cell.startsWith('!') ? cell : Buffer.from(cell, 'hex').toString('utf8');
}
