/**
 * A real server on port 0 over a real SQLite file in a temp folder, for integration tests.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/index.js';
import { openStore, type Store } from '../../src/store/index.js';

export interface TestServer {
  url: string;
  server: RunningServer;
  store: Store;
  dir: string;
  dbPath: string;
  /** POST /v1/ingest with a bearer key (default `mp_live_test`). */
  ingest(
    body: unknown,
    init?: { key?: string | null; headers?: Record<string, string> },
  ): Promise<Response>;
  /** GET a JSON API path, asserting a 200. */
  api<T = Record<string, unknown>>(path: string): Promise<T>;
  close(): Promise<void>;
}

/** The text of fixtures/captures/NAME.json. */
export const capture = (name: 'ts-sdk-exercise' | 'go-style' | 'dotnet-style'): string =>
  readFileSync(
    join(import.meta.dirname, '..', '..', 'fixtures', 'captures', `${name}.json`),
    'utf8',
  );

export async function startTestServer(options: Partial<ServerOptions> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpulse-test-'));
  const dbPath = join(dir, 'devtools.db');
  const store = openStore(dbPath);
  const server = await startServer({ store, port: 0, rateLimit: false, ...options });
  const url = `http://127.0.0.1:${server.info.port}`;
  return {
    url,
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
    api: async <T>(path: string) => {
      const res = await fetch(`${url}${path}`);
      if (res.status !== 200) throw new Error(`${path} → ${res.status}: ${await res.text()}`);
      return (await res.json()) as T;
    },
    close: async () => {
      await server.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
