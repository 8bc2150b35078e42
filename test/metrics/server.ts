import { readFileSync } from 'node:fs';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { tempStore } from './helpers.js';

export interface Harness {
  url: string;
  store: ReturnType<typeof tempStore>;
  server: RunningServer;
  ingest(body: unknown, key?: string): Promise<number>;
  capture(name: string, key?: string): Promise<number>;
  get<T = Record<string, unknown>>(path: string): Promise<T>;
  getRaw(path: string): Promise<Response>;
  put<T = Record<string, unknown>>(path: string, body: unknown): Promise<T>;
  close(): Promise<void>;
}

/** A real server on a free port over a temp-dir store. */
export async function startHarness(): Promise<Harness> {
  const store = tempStore();
  const server = await startServer({ store, port: 0, hosts: ['127.0.0.1'], rateLimit: false });
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
    async get(path) {
      const res = await fetch(`${url}${path}`);
      const body = (await res.json()) as never;
      if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    },
    getRaw: (path) => fetch(`${url}${path}`),
    async put(path, body) {
      const res = await fetch(`${url}${path}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.json()) as never;
    },
    async close() {
      await server.close();
      store.cleanup();
    },
  };
  return h;
}
