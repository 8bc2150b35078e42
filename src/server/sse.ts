import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LiveBus } from '../ingest/bus.js';
import type { LiveEvent } from '../shared/live.js';
import { stringifyJson } from '../shared/deep-json.js';

/** How often an idle stream sends a comment, so proxies and sleeping laptops notice a dead one. */
const HEARTBEAT_MS = 15_000;

/**
 * `GET /api/stream`: server-sent events, one per stored call, startup, rejection and batch,
 * plus `cleared` and the spool's backlog (`spool`), which concern every project.
 * `?project=ID` narrows to one project. Slow readers are not buffered without bound: past
 * 4 MiB of unsent data the stream is closed and the browser's EventSource reconnects.
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
  const send = (event: LiveEvent): void => {
    const pid = (event.data as { project_id?: number | null }).project_id;
    const global = event.type === 'cleared' || event.type === 'spool' || event.type === 'retention';
    if (projectId !== undefined && !global && pid !== projectId) return;
    if (res.writableLength > 4 * 1024 * 1024) {
      res.destroy();
      return;
    }
    res.write(`event: ${event.type}\ndata: ${stringifyJson(event.data)}\n\n`);
  };
  const unsubscribe = bus.subscribe(send);
  const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const close = (): void => {
    clearInterval(heartbeat);
    unsubscribe();
  };
  req.once('close', close);
  res.once('close', close);
}
