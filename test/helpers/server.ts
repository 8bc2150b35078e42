/**
 * A real server on port 0 over a real SQLite file in a temp folder, for integration tests.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Api } from '../../src/api/handlers.js';
import {
  answerOf,
  getRemote,
  operationPath,
  tokenHeaders,
  type ApiQuery,
} from '../../src/api/remote.js';
import type { ApiName } from '../../src/shared/api-routes.js';
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/index.js';
import { openStore, type Store } from '../../src/store/index.js';

import { TEST_TOKEN } from './token.js';

export { authedFetch, TEST_TOKEN, TOKEN_HEADERS } from './token.js';

export interface TestServer {
  url: string;
  /** The owner token this server asks for. */
  token: string;
  /** `fetch(url + path)` with the token's header (what the CLI's clients send). */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  server: RunningServer;
  store: Store;
  dir: string;
  dbPath: string;
  /** POST /v1/ingest with a bearer key (default `mp_live_test`). */
  ingest(
    body: unknown,
    init?: { key?: string | null; headers?: Record<string, string> },
  ): Promise<Response>;
  /** GET operation `name` (query values, or a query string), asserting a 200; typed by the API. */
  api<K extends ApiName>(name: K, query?: ApiQuery): Promise<Api[K]>;
  close(): Promise<void>;
}

export type CaptureName =
  | 'ts-sdk-exercise'
  | 'go-style'
  | 'go-omitted'
  | 'dotnet-style'
  | 'ruby-style'
  | 'kotlin-style'
  | 'php-0.1.6';

/** The text of fixtures/captures/NAME.json. */
export const capture = (name: CaptureName): string =>
  readFileSync(
    join(import.meta.dirname, '..', '..', 'fixtures', 'captures', `${name}.json`),
    'utf8',
  );

/**
 * Starts a server over a fresh file. `seed` runs on that file's store before the server opens
 * it — to leave the state a previous run would (say, flushes still in the ingest spool).
 */
export async function startTestServer(
  options: Partial<ServerOptions> = {},
  seed?: (store: Store) => void,
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpulse-test-'));
  const dbPath = join(dir, 'devtools.db');
  if (seed) {
    const before = openStore(dbPath);
    try {
      seed(before);
    } finally {
      before.close();
    }
  }
  const store = openStore(dbPath);
  const token = options.token ?? TEST_TOKEN;
  const server = await startServer({ store, port: 0, rateLimit: false, ...options, token });
  const url = `http://127.0.0.1:${server.info.port}`;
  const withToken = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${url}${path}`, {
      ...init,
      headers: { ...tokenHeaders(token), ...(init.headers as Record<string, string> | undefined) },
    });
  return {
    url,
    token,
    fetch: withToken,
    server,
    store,
    dir,
    dbPath,
    ingest: (body, init = {}) => {
      const key = init.key === undefined ? 'mp_live_test' : init.key;
      return fetch(`${url}/v1/ingest`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(key === null ? {} : { authorization: `Bearer ${key}` }),
          ...init.headers,
        },
        body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
      });
    },
    api: async (name, query) => {
      const path = operationPath(name, query);
      const res = await withToken(path);
      if (res.status !== 200) throw new Error(`${path} → ${res.status}: ${await res.text()}`);
      return answerOf(name, await res.json());
    },
    close: async () => {
      await server.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Calls per session straight from the file, with no server in between. */
export function storedBySession(path: string): Record<string, number> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db
      .prepare<[], { session_id: string; n: number }>(
        'SELECT session_id, count(*) AS n FROM calls GROUP BY 1',
      )
      .all();
    return Object.fromEntries(rows.map((r) => [r.session_id, r.n]));
  } finally {
    db.close();
  }
}

/**
 * Waits until the server at `url` has applied every spooled flush, and returns how many were
 * waiting at first. (Reads wait for an ordinary backlog themselves, but not for a flood's.)
 */
export async function untilSpoolApplied(url: string, token = TEST_TOKEN): Promise<number> {
  let first: number | undefined;
  for (;;) {
    const { spool } = await getRemote(url, 'spool', {}, { token });
    if (!spool) throw new Error('the server reports no spool');
    first ??= spool.pendingRequests;
    if (spool.pendingRequests === 0) return first;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
