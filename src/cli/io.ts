/**
 * What a command needs from the outside world, injectable so tests can run commands in-process
 * as well as through real child processes.
 */
export interface CliIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
}

/** A CLI command: resolves to the process exit code. */
export interface Command {
  summary: string;
  run(argv: string[], io: CliIO): Promise<number>;
}

/** The real process streams. */
export const processIO: CliIO = {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
};

/** Thrown for bad flags: main prints the message and the command's usage, exits 2. */
export class UsageError extends Error {}

/** Reads all of stdin as UTF-8. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Makes a closed reader end the process quietly: `conformance FILE --json | head -1` closes the
 * pipe after one line, and the next write fails with EPIPE — an 'error' event that, unhandled,
 * printed a stack trace. Whatever was left to print has nobody to read it, so exit at once,
 * with 0 as the reader chose to stop; any other stream error is still fatal, and said.
 */
export function exitQuietlyOnClosedPipe(
  stream: NodeJS.WritableStream,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return exit(0);
    process.stderr.write(`mcpulse-devtools: output failed: ${error.message}\n`);
    exit(1);
  });
}
