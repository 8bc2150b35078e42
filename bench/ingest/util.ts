/**
 * Shared by bench/ingest.ts and bench/startup.ts: build the CLI, start servers as separate
 * processes on loopback, sample a process's memory, generate SDK-shaped batches.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { TOKEN_ENV, TOKEN_HEADER } from '../../src/shared/owner-token.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The CLI under test; BENCH_CLI points the benches at another build (to compare a change). */
export const CLI = process.env.BENCH_CLI ?? join(ROOT, 'dist', 'cli', 'main.js');

/** Builds dist/ (`tsc -p tsconfig.build.json`) unless BENCH_NO_BUILD is set. */
export function ensureBuilt(): void {
  if ((process.env.BENCH_NO_BUILD || process.env.BENCH_CLI) && existsSync(CLI)) return;
  const started = performance.now();
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  if (!existsSync(CLI)) throw new Error(`build failed, no ${CLI}:\n${r.stdout}${r.stderr}`);
  if (r.status !== 0)
    process.stderr.write(`warning: tsc reported errors; benchmarking what it emitted\n`);
  process.env.BENCH_NO_BUILD = '1'; // once per run-all
  process.stderr.write(`built dist/ in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

/**
 * The owner token of every dashboard a bench starts (issue 40): set in this process's
 * environment, so the servers, proxies and clients it spawns find it as a script's would.
 */
export const BENCH_TOKEN = (process.env[TOKEN_ENV] ||= `bench-${randomBytes(16).toString('hex')}`);

/** The header that carries {@link BENCH_TOKEN}, for a bench's own `/api/*` requests. */
export const BENCH_HEADERS: Record<string, string> = { [TOKEN_HEADER]: BENCH_TOKEN };

export interface Proc {
  child: ChildProcess;
  pid: number;
  url: string;
  /** Milliseconds from spawn to the URL being printed. */
  readyMs: number;
  stop(): Promise<void>;
}

/** Spawns `node [nodeArgs] script args` and resolves when stdout shows a URL (`pattern`). */
export async function spawnServer(
  script: string,
  args: string[],
  nodeArgs: string[] = [],
  pattern = /(http:\/\/\S+)/,
): Promise<Proc> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL in 30 s: ${out}`)), 30_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        // The origin alone: a dashboard prints its link, with the token, on that line.
        resolve(new URL(m[1]!.replace('//localhost:', '//127.0.0.1:')).origin);
      }
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${out}`));
    });
  });
  const readyMs = performance.now() - t0;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    child,
    pid: child.pid!,
    url,
    readyMs,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Resident memory of a process in MiB (Linux /proc, else `ps`). */
export function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // not Linux
  }
  const r = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
  return Number(r.stdout.trim()) / 1024;
}

/** Samples a process's RSS every `everyMs` until stopped. */
export function sampleRss(pid: number, everyMs = 250): { stop(): { t: number; mib: number }[] } {
  const samples: { t: number; mib: number }[] = [];
  const t0 = performance.now();
  const take = (): void => {
    samples.push({ t: performance.now() - t0, mib: rssMiB(pid) });
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

const TOOLS = ['search_docs', 'fetch_page', 'list_files', 'read_file', 'write_file', 'run_query'];
const HEX = '0123456789abcdef';

/**
 * SDK-shaped request bodies: each connection is one MCP server process (one session id),
 * flushing `size` calls at a time with advancing timestamps, a few distinct tools and
 * argument hashes — so the derived facts (retries, runs, pairs) do real work.
 */
export function bodyFactory(
  size: number,
  runId: string,
): (context: Record<string, unknown>) => string {
  let connections = 0;
  return (context) => {
    if (context.session === undefined) {
      context.session = `s_${runId}_${(connections++).toString(16).padStart(4, '0')}`;
      context.clock = Date.UTC(2026, 11, 2, 9);
      context.n = 0;
    }
    const session = context.session as string;
    let clock = context.clock as number;
    let n = context.n as number;
    const parts: string[] = [];
    for (let i = 0; i < size; i++, n++) {
      clock += 40 + ((n * 7919) % 900);
      const tool = TOOLS[(n >> 2) % TOOLS.length]!;
      let hash = '';
      for (let k = 0, x = (n * 2654435761) >>> 0; k < 12; k++, x = (x * 1103515245 + 12345) >>> 0)
        hash += HEX[x & 15];
      parts.push(
        `{"v":1,"type":"call","session_id":"${session}","client_name":"bench","tool_name":"${tool}",` +
          `"started_at":"${new Date(clock).toISOString()}","duration_ms":${(n * 37) % 1800},"outcome":"${n % 23 === 0 ? 'tool_error' : 'ok'}",` +
          `"response_bytes":${(n * 131) % 20_000},"is_empty":${n % 17 === 0},"args_hash":"${n % 5 === 0 ? 'a1b2c3d4e5f6' : hash}"}`,
      );
    }
    context.clock = clock;
    context.n = n;
    return `{"batch":[${parts.join(',')}]}`;
  };
}

export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
