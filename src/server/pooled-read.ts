/**
 * Answering an API read on a read thread (src/server/read-pool/): the writer brings the data up
 * to date first (applies the spool, flushes derived facts — write work stays on the writer),
 * then the read runs on a thread, its answer written back here with its timing in
 * `server-timing` (shown by the browser's Network panel: freshness, queue and read).
 */
import type { ServerResponse } from 'node:http';
import { ensureFresh, type AppContext } from '../api/call.js';
import type { Freshness } from '../api/types.js';
import type { ApiName } from '../shared/api-routes.js';
import type { Store } from '../store/index.js';
import type { ReadAnswer, ReadPool } from './read-pool/pool.js';
import { sendDownload, sendJson, sendJsonText } from './respond.js';

/**
 * Operations that never run on a read thread: they answer from the server thread's own memory —
 * the spool's backlog, and the retention runner's last pass (a read thread has no runner).
 */
const ON_SERVER_THREAD: ReadonlySet<ApiName> = new Set<ApiName>(['spool', 'retention']);

/**
 * Can this read go to a thread? A GET of an API operation on a file that is still the one
 * opened (a lost file is read where it is still open, on the writer's connection), with a
 * pool that can start threads here.
 */
export function pooled(
  pool: ReadPool | null,
  store: Store,
  method: string,
  operation: ApiName | undefined,
): operation is ApiName {
  return (
    pool !== null &&
    !pool.broken &&
    method === 'GET' &&
    operation !== undefined &&
    !ON_SERVER_THREAD.has(operation) &&
    store.path !== ':memory:' &&
    store.path !== '' &&
    store.fileProblem() === null
  );
}

/**
 * Makes the data fresh, runs the read on a thread and writes its answer to `res`; false (and
 * nothing written) when no thread could load here, for the caller to answer it itself.
 */
export async function answerPooled(
  pool: ReadPool,
  store: Store,
  operation: ApiName,
  freshness: Freshness,
  request: { res: ServerResponse; url: URL; params: Record<string, string> },
  app: AppContext,
): Promise<boolean> {
  const { res, url, params } = request;
  const t0 = performance.now();
  await ensureFresh(store, freshness, app);
  const freshMs = performance.now() - t0;
  // The client may leave while the read waits or runs: its thread is then freed or stopped.
  const gone = new AbortController();
  const onClose = (): void => {
    if (!res.writableFinished) gone.abort();
  };
  res.on('close', onClose);
  try {
    const answer = await pool.read(
      {
        db: store.path,
        name: operation,
        query: url.search.slice(1),
        params,
        ...(operation === 'status' ? { info: app.info, spool: app.spool?.() ?? null } : {}),
      },
      gone.signal,
    );
    if (answer.kind === 'unavailable') return false;
    if (gone.signal.aborted) return true;
    res.setHeader('server-timing', serverTiming(freshMs, answer));
    await write(res, answer);
    return true;
  } finally {
    res.off('close', onClose);
  }
}

function serverTiming(freshMs: number, answer: ReadAnswer): string {
  const { lane, queuedMs, readMs } = answer.timing;
  return [
    `fresh;dur=${freshMs.toFixed(1)}`,
    `queue;dur=${queuedMs.toFixed(1)};desc="${lane} lane"`,
    `read;dur=${readMs.toFixed(1)};desc="read thread"`,
  ].join(', ');
}

function write(
  res: ServerResponse,
  answer: Exclude<ReadAnswer, { kind: 'unavailable' }>,
): void | Promise<void> {
  if (answer.kind === 'error') return sendJson(res, answer.status, { error: answer.message });
  if (answer.kind === 'json') return sendJsonText(res, answer.text);
  return sendDownload(res, answer.contentType, answer.filename, answer.chunks);
}
