import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './io.js';

/** node:util parseArgs, with its errors turned into {@link UsageError}s. */
export function parseFlags<T extends ParseArgsConfig['options']>(
  argv: string[],
  options: T,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Parses `--port` (0–65535). */
export function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new UsageError(`--port: expected 0–65535, received '${value}'`);
  return n;
}
