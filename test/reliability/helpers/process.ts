/**
 * The real CLI as a child process (`mcpulse-devtools serve`, run from source through tsx so a
 * stale build never hides a regression), plus small helpers for faults.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../helpers/temp-dir.js';
import { TEST_TOKEN, TOKEN_ENV_VARS } from '../../helpers/token.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CLI = join(ROOT, 'src', 'cli', 'main.ts');

// The reliability tests take it from here, with the CLI helpers.
export { tempDir };

export interface Served {
  child: ChildProcess;
  /** The dashboard's origin (`http://127.0.0.1:PORT`), without the printed link's token. */
  url: string;
  /** The owner token the printed link carried. */
  token: string;
  pid: number;
  output: () => string;
  /** Resolves with the exit code (or signal) once the process is gone. */
  exited: Promise<number | NodeJS.Signals | null>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

/** Environment variables to add to (or, as `undefined`, remove from) the child's. */
export type EnvChanges = Record<string, string | undefined>;

function spawnCli(args: string[], env: EnvChanges = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '', ...TOKEN_ENV_VARS, ...env },
  });
}

/** Starts `serve --port 0 --db PATH --no-rate-limit` and resolves once it prints its URL. */
export async function serve(
  db: string,
  extra: string[] = [],
  env: EnvChanges = {},
): Promise<Served> {
  const child = spawnCli(['serve', '--port', '0', '--db', db, '--no-rate-limit', ...extra], env);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const link = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve did not start in 20 s: ${out}`)),
      20_000,
    );
    const onData = (): void => {
      const m = /dashboard\s+(http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!.replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before listening: ${out}`));
    });
  });
  const printed = new URL(link);
  const url = printed.origin;
  const token = printed.searchParams.get('token') ?? TEST_TOKEN;
  return {
    child,
    url,
    token,
    pid: child.pid!,
    output: () => out,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs `serve` expecting it to refuse to start; resolves with what it said and how it ended. */
export async function serveExpectingExit(
  args: string[],
  timeoutMs = 20_000,
  env: EnvChanges = {},
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  const child = spawnCli(['serve', ...args], env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve kept running with ${args.join(' ')}: ${stdout}${stderr}`));
    }, timeoutMs);
    child.once('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  return { code, stdout, stderr, ms: performance.now() - started };
}

/** POSTs a body to /v1/ingest. */
export function postIngest(
  url: string,
  body: unknown,
  key = 'mp_live_reliability',
): Promise<Response> {
  return fetch(`${url}/v1/ingest`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Thirty calls, all in session `sessionId`, each with a distinct args hash. */
export function batchOf(
  sessionId: string,
  n = 30,
  startMs = Date.UTC(2026, 11, 2),
): { batch: object[] } {
  return {
    batch: Array.from({ length: n }, (_, i) => ({
      v: 1,
      type: 'call',
      session_id: sessionId,
      client_name: 'reliability',
      tool_name: `tool_${i % 5}`,
      started_at: new Date(startMs + i * 50).toISOString(),
      duration_ms: 12,
      outcome: 'ok',
      response_bytes: 100,
      is_empty: false,
      args_hash: (0x100000000000 + i).toString(16).slice(-12),
    })),
  };
}

/** Holds a SQLite write lock on `db` from another process until `release()`. */
export async function holdWriteLock(db: string): Promise<{ release: () => Promise<void> }> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.exec('BEGIN EXCLUSIVE');
    process.stdout.write('locked\\n');
    process.stdin.on('data', () => {});
    process.stdin.on('end', () => { db.exec('ROLLBACK'); db.close(); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['-e', script, db], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`lock holder exited ${code}`)));
  });
  return {
    release: async () => {
      child.stdin!.end();
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** True when this process may mount a tmpfs (root with CAP_SYS_ADMIN, as in CI containers here). */
export function canMount(): boolean {
  const { dir, remove } = tempDir('mcpulse-mountprobe-');
  try {
    const ok = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir]).status === 0;
    if (ok) spawnSync('umount', [dir]);
    return ok;
  } finally {
    remove();
  }
}

/**
 * Mounts a tmpfs of `size` (e.g. '3m') at a fresh folder; `unmount()` cleans up. Its root is
 * 0700 (tmpfs defaults to 1777, a folder `serve` refuses to keep a database in).
 */
export function mountTmpfs(size: string, options = ''): { dir: string; unmount: () => void } {
  const { dir, remove } = tempDir('mcpulse-tmpfs-');
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('mount', [
    '-t',
    'tmpfs',
    '-o',
    `size=${size},mode=0700${options ? `,${options}` : ''}`,
    'tmpfs',
    dir,
  ]);
  if (r.status !== 0) throw new Error(`mount failed: ${r.stderr.toString()}`);
  return {
    dir,
    unmount: () => {
      spawnSync('umount', ['-l', dir]);
      remove();
    },
  };
}

/** `chattr +i/-i`: immutable even for root. Returns false where unsupported. */
export function chattr(flag: '+i' | '-i', ...paths: string[]): boolean {
  return spawnSync('chattr', [flag, ...paths]).status === 0;
}

/** The error lines a CLI printed: one line, no stack trace. */
export function expectOneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  if (lines.length !== 1 || /^\s+at /m.test(stderr))
    throw new Error(`expected one line, got:\n${stderr}`);
  return lines[0]!;
}
