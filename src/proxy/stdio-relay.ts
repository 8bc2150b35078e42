/**
 * The stdio relay: spawns the server, forwards every chunk between the client's pipes and the
 * server's exactly as it arrives (stderr is the server's own, inherited), and hands copies to a
 * tap on the side — in the proxy, the telemetry thread. The relay never waits on the tap, and
 * the tap cannot throw into it.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** What sees copies of the traffic (the telemetry thread, or a test's recorder). */
export interface RelayTap {
  /** Bytes the client sent, already forwarded to the server. */
  client(chunk: Buffer): void;
  /** Bytes the server sent, already forwarded to the client. */
  server(chunk: Buffer): void;
  /**
   * The server exited and its output has been forwarded. `clean`: the client had closed its
   * side first and the server exited 0 — a normal end, not a crash.
   */
  end(clean: boolean): void;
}

/** Options for {@link startStdioRelay}. */
export interface StdioRelayOptions {
  command: string;
  args: string[];
  /** The client's side: what the client writes, and where the server's answers go. */
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  /** Where the server's stderr goes; `process.stderr` is inherited (no copy at all). */
  stderr: NodeJS.WritableStream;
  tap: RelayTap;
  env?: NodeJS.ProcessEnv;
}

/** How the server ended. */
export interface StdioRelayEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the command could not be started at all. */
  spawnError?: string;
}

/** A running relay. */
export interface StdioRelay {
  child: ChildProcess;
  /** Resolves once the server has exited and its output has been forwarded. */
  done: Promise<StdioRelayEnd>;
}

/** Calls the tap, swallowing anything it throws: never the relay's problem. */
function guarded(fn: (chunk: Buffer) => void): (chunk: Buffer) => void {
  return (chunk) => {
    try {
      fn(chunk);
    } catch {
      // See above.
    }
  };
}

/** Starts the server and the relay. */
export function startStdioRelay(options: StdioRelayOptions): StdioRelay {
  const { stdin, stdout, tap } = options;
  const inheritStderr = options.stderr === process.stderr;
  const child = spawn(options.command, options.args, {
    stdio: ['pipe', 'pipe', inheritStderr ? 'inherit' : 'pipe'],
    env: options.env ?? process.env,
  });
  let clientClosed = false;
  stdin.once('end', () => (clientClosed = true));
  const done = new Promise<StdioRelayEnd>((resolve) => {
    let settled = false;
    child.once('error', (error) => {
      // ENOENT and friends: there is no server, so no 'close' will follow a failed spawn.
      if (settled || child.pid !== undefined) return;
      settled = true;
      stdin.unpipe(child.stdin!);
      resolve({ code: null, signal: null, spawnError: error.message });
    });
    child.once('close', (code, signal) => {
      if (settled) return;
      settled = true;
      stdin.unpipe(child.stdin!);
      try {
        tap.end(clientClosed && code === 0 && signal === null);
      } catch {
        // As above.
      }
      resolve({ code, signal });
    });
  });

  // A server that died, or a client that went away, turns writes into EPIPE: the other end's
  // exit is what tells the story, not an exception in the relay.
  child.stdin!.on('error', () => {});
  stdout.on('error', () => {});

  // pipe() registers its 'data' listener first, so each chunk is written before it is copied.
  stdin.pipe(child.stdin!);
  stdin.on(
    'data',
    guarded((chunk) => tap.client(chunk)),
  );
  child.stdout!.pipe(stdout, { end: false });
  child.stdout!.on(
    'data',
    guarded((chunk) => tap.server(chunk)),
  );
  if (!inheritStderr) child.stderr!.pipe(options.stderr, { end: false });
  return { child, done };
}
