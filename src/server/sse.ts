import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LiveBus } from '../ingest/bus.js';
import type { LiveEvent } from '../shared/live.js';
import { stringifyJson } from '../shared/deep-json.js';

/** How often an idle stream sends a comment, so proxies and sleeping laptops notice a dead one. */
const HEARTBEAT_MS = 15_000;
/** Past this much unsent data the reader is too slow: the stream is closed (it reconnects). */
const MAX_UNSENT_BYTES = 4 * 1024 * 1024;
/**
 * Events are written to a stream at most this often (issue 39). The first event after a quiet
 * spell goes out at once — a lone call still shows up at once — and the ones that follow within
 * the window are held and written together at its end, so a flood costs the reader ≤ 4 wake-ups
 * a second, not one per stored row (2,000+ a second at a 2,000 payloads/s soak), and the page's
 * refetches follow those wake-ups.
 */
export const SSE_FLUSH_MS = 250;

/** What one stream does with the bus's events; see {@link createStreamWriter}. */
export interface StreamWriter {
  /** Takes one event (already filtered for the stream). */
  send(event: LiveEvent): void;
  /** Writes what is held now (the stream closes, or a test). */
  flush(): void;
  /** Drops what is held and stops the timer. */
  close(): void;
}

/**
 * Coalesces one stream's events into at most one write per `windowMs`; events keep their
 * order and are all delivered (`tail` prints every call). `write` returns false when the reader
 * is too far behind: the writer stops (the caller destroys the stream).
 */
export function createStreamWriter(
  write: (chunk: string) => boolean,
  windowMs = SSE_FLUSH_MS,
  now: () => number = performance.now.bind(performance),
): StreamWriter {
  let held: string[] = [];
  let lastWrite = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  let soon: NodeJS.Immediate | undefined;
  let closed = false;

  function cancelWrite(): void {
    clearTimeout(timer);
    clearImmediate(soon);
    timer = undefined;
    soon = undefined;
  }

  function flush(): void {
    cancelWrite();
    if (closed || held.length === 0) return;
    const chunk = held.join('');
    held = [];
    lastWrite = now();
    if (!write(chunk)) close();
  }

  function close(): void {
    closed = true;
    held = [];
    cancelWrite();
  }

  return {
    send(event) {
      if (closed) return;
      held.push(`event: ${event.type}\ndata: ${stringifyJson(event.data)}\n\n`);
      if (timer || soon) return;
      const wait = lastWrite + windowMs - now();
      if (wait <= 0) {
        // The first event after a quiet window goes at the end of this turn, with the rest of
        // what the same write published (a batch and its calls), and the window starts.
        soon = setImmediate(flush);
        return;
      }
      timer = setTimeout(flush, wait);
      timer.unref();
    },
    flush,
    close,
  };
}

/**
 * `GET /api/stream`: server-sent events, one per stored call, startup, rejection and batch,
 * plus `cleared` and the spool's backlog (`spool`), which concern every project.
 * `?project=ID` narrows to one project. Written at most every {@link SSE_FLUSH_MS} per stream
 * (see there). Slow readers are not buffered without bound: past 4 MiB of unsent data the
 * stream is closed and the browser's EventSource reconnects.
 */
export function openEventStream(
  req: IncomingMessage,
  res: ServerResponse,
  bus: LiveBus,
  projectId: number | undefined,
): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write(`retry: 2000\n: connected\n\n`);
  const writer = createStreamWriter((chunk) => {
    if (res.destroyed) return false;
    if (res.writableLength > MAX_UNSENT_BYTES) {
      res.destroy();
      return false;
    }
    res.write(chunk);
    return true;
  });
  const send = (event: LiveEvent): void => {
    const pid = (event.data as { project_id?: number | null }).project_id;
    const global = event.type === 'cleared' || event.type === 'spool' || event.type === 'retention';
    if (projectId !== undefined && !global && pid !== projectId) return;
    writer.send(event);
  };
  const unsubscribe = bus.subscribe(send);
  const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const close = (): void => {
    clearInterval(heartbeat);
    writer.close();
    unsubscribe();
  };
  req.once('close', close);
  res.once('close', close);
}
