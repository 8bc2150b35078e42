import { readFileSync } from 'node:fs';
import type { Api } from '../../src/api/handlers.js';
import { answerOf, operationPath, type ApiQuery } from '../../src/api/remote.js';
import type { ApiName } from '../../src/shared/api-routes.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { tempStore } from './helpers.js';
import { authedFetch, TEST_TOKEN } from '../helpers/token.js';

export interface Harness {
  url: string;
  store: ReturnType<typeof tempStore>;
  server: RunningServer;
  ingest(body: unknown, key?: string): Promise<number>;
  capture(name: string, key?: string): Promise<number>;
  /** GET operation `name` (query values, or a query string); typed by the API's own map. */
  get<K extends ApiName>(name: K, query?: ApiQuery): Promise<Api[K]>;
  getRaw(path: string): Promise<Response>;
  /** PUT `body` to operation `name`; answers whatever the server said (errors included). */
  put<K extends ApiName>(name: K, body: unknown): Promise<Api[K] | { error: string }>;
  close(): Promise<void>;
}

/** A real server on a free port over a temp-dir store. */
export async function startHarness(): Promise<Harness> {
  const store = tempStore();
  const server = await startServer({
    store,
    port: 0,
    hosts: ['127.0.0.1'],
    rateLimit: false,
    token: TEST_TOKEN,
  });
  const url = `http://127.0.0.1:${server.info.port}`;
  const h: Harness = {
    url,
    store,
    server,
    async ingest(body, key = 'mp_live_test') {
      const res = await fetch(`${url}/v1/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      await res.arrayBuffer();
      return res.status;
    },
    capture(name, key) {
      return h.ingest(readFileSync(`fixtures/captures/${name}.json`, 'utf8'), key);
    },
    async get(name, query) {
      const path = operationPath(name, query);
      const res = await authedFetch(`${url}${path}`);
      const body: unknown = await res.json();
      if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
      return answerOf(name, body);
    },
    getRaw: (path) => authedFetch(`${url}${path}`),
    async put(name, body) {
      const res = await authedFetch(`${url}${operationPath(name)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer: unknown = await res.json();
      return res.ok ? answerOf(name, answer) : (answer as { error: string });
    },
    async close() {
      await server.close();
      store.cleanup();
    },
  };
  return h;
}
