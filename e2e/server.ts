/**
 * A real `mcpulse-devtools serve` for each spec file: the built CLI as a child process, on
 * port 0, with a fresh SQLite file in a temp folder. Specs talk to it over real HTTP.
 */
import { test as base, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The built CLI by its full path: the dashboard names it so in what it suggests (`status.cli`),
 * run by this same Node (issue 43).
 */
export const CLI_WORDS = [
  process.execPath,
  join(import.meta.dirname, '..', 'dist', 'cli', 'main.js'),
];

export interface DevtoolsServer {
  /** The dashboard's origin, `http://localhost:PORT`. */
  url: string;
  /** The link `serve` printed (`URL/?token=…`): what a user opens first. */
  link: string;
  /** The owner token the link carries. */
  token: string;
  /** The header that carries it, for a spec's own requests (`/api/*`, the proxy route). */
  headers: Record<string, string>;
  dbPath: string;
  /** POSTs a body to /v1/ingest with a key; resolves to the response. */
  ingest(body: unknown, key?: string): Promise<Response>;
  /** POSTs one of fixtures/captures/*.json. */
  ingestCapture(
    name: 'ts-sdk-exercise' | 'go-style' | 'dotnet-style' | 'php-0.1.6',
    key?: string,
  ): Promise<Response>;
}

export interface StartOptions {
  /**
   * Runs before the server starts, on the path it will open: a spec can leave the database as
   * a previous run would have (say, with requests still spooled).
   */
  seed?: (dbPath: string) => void | Promise<void>;
}

/** Starts the built CLI; resolves once it prints its URL. */
export async function startDevtools(options: StartOptions = {}): Promise<{
  server: DevtoolsServer;
  stop: () => Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpulse-e2e-'));
  const dbPath = join(dir, 'devtools.db');
  await options.seed?.(dbPath);
  // As a user runs it: no token given, so it makes its own in ~/.mcpulse-devtools — here the
  // temp folder is the home, so every server has its own and none touches the real one.
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir };
  delete env.MCPULSE_DEVTOOLS_TOKEN;
  const child: ChildProcess = spawn(
    process.execPath,
    ['dist/cli/main.js', 'serve', '--port', '0', '--db', dbPath, '--no-rate-limit'],
    { stdio: ['ignore', 'pipe', 'pipe'], env },
  );
  const link = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /dashboard\s+(http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  // The printed link is the only place the spec learns the token, as a user would.
  const printed = new URL(link);
  const url = printed.origin;
  const token = printed.searchParams.get('token') ?? '';
  const ingest = (body: unknown, key = 'mp_live_e2e'): Promise<Response> =>
    fetch(`${url}/v1/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const server: DevtoolsServer = {
    url,
    link,
    token,
    headers: { 'x-devtools-token': token },
    dbPath,
    ingest,
    ingestCapture: (name, key) =>
      ingest(readFileSync(join('fixtures/captures', `${name}.json`), 'utf8'), key),
  };
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  };
  return { server, stop };
}

/**
 * Opens `server`'s printed link in `page`, as a user does first: the server trades the token
 * for its cookie and sends the page to `/` without it.
 */
export async function openLink(page: Page, server: DevtoolsServer): Promise<void> {
  await page.goto(server.link);
  await page.waitForURL((u) => !u.searchParams.has('token'));
}

/**
 * `test` with a `devtools` fixture: one real server (and fresh database) per worker; every
 * `page` has opened its printed link before the test starts.
 */
export const test = base.extend<{ page: Page }, { devtools: DevtoolsServer }>({
  page: async ({ page, devtools }, use) => {
    await openLink(page, devtools);
    await use(page);
  },
  devtools: [
    // Playwright reads fixture dependencies from the destructuring pattern; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { server, stop } = await startDevtools();
      await use(server);
      await stop();
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@playwright/test';
