/**
 * A read thread: runs the API's read operations on its own read-only connection, so the thread
 * that acknowledges ingest never waits on a query (issue 39). The server's thread has already
 * brought the data up to date (applied the spool, flushed derived facts) before it asks, and
 * SQLite's WAL gives each read a snapshot that includes every commit made before it began — so
 * a read here sees everything acknowledged before it was asked.
 *
 * Started by ./pool.ts: from `dist/` or the desktop bundle as this file, from source through tsx.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runHandler } from '../../api/call.js';
import { handlers } from '../../api/handlers.js';
import { ApiError, RawResponse } from '../../api/types.js';
import { stringifyJson } from '../../shared/deep-json.js';
import { openStore, useNativeBinding, type ReadStore } from '../../store/index.js';
import {
  CHUNK_BYTES,
  type FromReadWorker,
  type ReadTask,
  type ReadWorkerData,
  type ToReadWorker,
} from './protocol.js';

/** Runs the read thread's loop on `port` (the worker's parent port). */
export function runReadWorker(port: NonNullable<typeof parentPort>, data: ReadWorkerData): void {
  useNativeBinding(data.nativeBinding);
  const stores = new Map<string, ReadStore>();
  /** A running download's credit: resolved when the server's thread wants the next chunk. */
  const credits = new Map<number, (go: boolean) => void>();
  const send = (message: FromReadWorker): void => port.postMessage(message);

  const storeFor = (path: string): ReadStore => {
    let store = stores.get(path);
    if (!store) stores.set(path, (store = openStore(path, { readonly: true })));
    return store;
  };

  /** Downloads cancelled while their thread was busy reading their next chunk. */
  const cancelled = new Set<number>();
  const nextCredit = (id: number): Promise<boolean> =>
    cancelled.delete(id)
      ? Promise.resolve(false)
      : new Promise((resolve) => credits.set(id, resolve));

  async function stream(id: number, raw: RawResponse): Promise<void> {
    send({ k: 'head', id, contentType: raw.contentType, filename: raw.filename });
    if (typeof raw.body === 'string') {
      send({ k: 'chunk', id, text: raw.body });
      send({ k: 'end', id });
      return;
    }
    const iterator = raw.body[Symbol.iterator]();
    try {
      let parts: string[] = [];
      let bytes = 0;
      for (let step = iterator.next(); !step.done; step = iterator.next()) {
        parts.push(step.value);
        bytes += step.value.length;
        if (bytes < CHUNK_BYTES) continue;
        send({ k: 'chunk', id, text: parts.join('') });
        parts = [];
        bytes = 0;
        // One chunk in flight: the export reads on only as fast as the client takes it.
        if (!(await nextCredit(id))) {
          cancelled.add(id);
          return;
        }
      }
      if (parts.length > 0) send({ k: 'chunk', id, text: parts.join('') });
      send({ k: 'end', id });
    } catch (error) {
      send({ k: 'abort', id, message: messageOf(error) });
    } finally {
      credits.delete(id);
      // A cancelled download ends too: the thread is free only once the server's thread hears so.
      if (cancelled.delete(id)) send({ k: 'end', id });
      // Ends the export's statements (and its read transaction) when it stopped early.
      iterator.return?.();
    }
  }

  async function run(task: ReadTask): Promise<void> {
    const { id } = task;
    try {
      const store = storeFor(task.db);
      const spool = task.spool;
      const result = runHandler(
        store,
        handlers[task.name],
        { query: new URLSearchParams(task.query), params: task.params, body: undefined },
        { info: task.info, spool: spool ? () => spool : undefined },
      );
      if (result instanceof RawResponse) return await stream(id, result);
      if (result === undefined) throw new Error(`${task.name} answered nothing`);
      send({ k: 'json', id, text: stringifyJson(result) });
    } catch (error) {
      if (error instanceof ApiError)
        return send({ k: 'error', id, status: error.status, message: error.message });
      send({ k: 'error', id, status: 500, message: `internal error: ${messageOf(error)}` });
    }
  }

  port.on('message', (message: ToReadWorker) => {
    switch (message.k) {
      case 'read':
        void run(message);
        break;
      case 'more':
      case 'cancel': {
        const credit = credits.get(message.id);
        credits.delete(message.id);
        if (credit) credit(message.k === 'more');
        else if (message.k === 'cancel') cancelled.add(message.id);
        break;
      }
      case 'forget':
        stores.get(message.db)?.close();
        stores.delete(message.db);
        send({ k: 'forgot', ack: message.ack });
        break;
    }
  });
  send({ k: 'ready' });
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

if (parentPort && (workerData as { readPool?: ReadWorkerData } | null)?.readPool) {
  runReadWorker(parentPort, (workerData as { readPool: ReadWorkerData }).readPool);
}
