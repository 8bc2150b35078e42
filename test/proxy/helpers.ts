/**
 * Driving MCP servers through the real `proxy` command: a client transport that records every
 * byte it sends and receives (the client's side of the byte-identity check), servers to put
 * behind the proxy, and the dashboard's view of what arrived.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TOKEN_ENV_VARS } from '../helpers/token.js';

const SERVERS = join(import.meta.dirname, 'servers');

const removals: (() => void)[] = [];
// Each test file evaluates this module afresh, so this runs after that file's tests.
afterAll(() => {
  for (const remove of removals.splice(0)) remove();
});

/** A fresh folder under the system's temp folder, removed after this test file's tests. */
export function scratchDir(prefix: string): string {
  const { dir, remove } = tempDir(prefix);
  removals.push(remove);
  return dir;
}

// Every proxy a test starts hands off to a spool folder of this test file's own, and a poster
// whose dashboard is gone (the test's closed) gives up after 20 s instead of 10 minutes.
process.env.MCPULSE_DEVTOOLS_SPOOL_DIR ??= scratchDir('mcpulse-proxy-spool-');
process.env.MCPULSE_PROXY_SPOOL_DEADLINE_MS ??= '20000';

/** The TypeScript SDK fixture server, as a command line. */
export const TS_SERVER = [process.execPath, '--import', 'tsx', join(SERVERS, 'ts-server.ts')];
/** The hand-written Python server, as a command line. */
export const PY_SERVER = ['python3', join(SERVERS, 'plain_server.py')];

/** How the child process ended. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * A stdio client transport (the SDK's `Transport` interface) that spawns its command itself and
 * keeps a copy of every byte written to it and read from it. Unparseable lines are reported
 * through `onerror` and skipped, like the SDK's own transport.
 */
export class RecordingStdioTransport implements Transport {
  readonly sent: Buffer[] = [];
  readonly received: Buffer[] = [];
  child!: ChildProcess;
  exited!: Promise<Exit>;
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private stderrText = '';
  private readonly buffer = new ReadBuffer({ maxBufferSize: 64 * 1024 * 1024 });

  constructor(
    private readonly command: string[],
    private readonly env: NodeJS.ProcessEnv = {},
  ) {}

  async start(): Promise<void> {
    const [cmd, ...args] = this.command;
    this.child = spawn(cmd!, args, {
      // The proxy finds the dashboard's owner token as a user's would: in the environment.
      env: { ...process.env, ...TOKEN_ENV_VARS, ...this.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolve) =>
      this.child.once('close', (code, signal) => {
        resolve({ code, signal });
        this.onclose?.();
      }),
    );
    this.child.stdin!.on('error', (e) => this.onerror?.(e));
    this.child.stderr!.on('data', (c: Buffer) => (this.stderrText += c.toString()));
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.received.push(chunk);
      this.buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (error) {
          this.onerror?.(error as Error);
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    });
    await new Promise<void>((resolve, reject) => {
      this.child.once('spawn', resolve);
      this.child.once('error', reject);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.writeRaw(serializeMessage(message));
  }

  /** Writes bytes as they are (malformed input tests). */
  writeRaw(text: string | Buffer): void {
    const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
    this.sent.push(bytes);
    this.child.stdin!.write(bytes);
  }

  /** Ends the server's stdin and waits for it to exit, as the SDK's transport does. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGTERM'), 5000);
    await this.exited;
    clearTimeout(timer);
  }

  stderr(): string {
    return this.stderrText;
  }

  sentBytes(): Buffer {
    return Buffer.concat(this.sent);
  }

  receivedBytes(): Buffer {
    return Buffer.concat(this.received);
  }
}

/** The proxy command line wrapping `server`. */
export function proxied(server: string[], url: string, flags: string[] = []): string[] {
  return [
    process.execPath,
    '--import',
    'tsx',
    CLI,
    'proxy',
    '--url',
    url,
    ...flags,
    '--',
    ...server,
  ];
}

/** A fresh folder for a server to record its bytes into. */
export function recordDir(): string {
  return scratchDir('mcpulse-proxy-rec-');
}

/** What the server recorded: the bytes it read and the bytes it wrote. */
export function serverBytes(dir: string): { read: Buffer; wrote: Buffer } {
  const file = (name: string) => {
    try {
      return readFileSync(join(dir, name));
    } catch {
      return Buffer.alloc(0);
    }
  };
  return { read: file('in.bin'), wrote: file('out.bin') };
}

/** A connected SDK client over a recording transport. */
export async function connectClient(
  command: string[],
  env: NodeJS.ProcessEnv = {},
  name = 'proxy-test-client',
): Promise<{ client: Client; transport: RecordingStdioTransport }> {
  const transport = new RecordingStdioTransport(command, env);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/**
 * Polls `read` until `done` holds (the dashboard applies batches asynchronously). A read that
 * fails (a project not known yet answers 404) counts as not done yet; at the time limit the
 * last value or error is reported.
 */
export async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 10_000) {
  const start = Date.now();
  for (;;) {
    let last: string;
    try {
      const value = await read();
      if (done(value)) return value;
      last = JSON.stringify(value);
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() - start > ms) throw new Error(`timed out; last: ${last}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
