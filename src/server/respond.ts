/** Writing answers: JSON with the common headers, and raw bodies (downloads) with backpressure. */
import type { ServerResponse } from 'node:http';
import type { RawResponse } from '../api/types.js';
import { stringifyJson } from '../shared/deep-json.js';

/** Writes a JSON answer. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  // Any depth: stored content (capabilities, extras) may nest deeper than JSON.stringify can go.
  sendJsonText(res, stringifyJson(body), status, headers);
}

/** Writes a JSON text already serialised (by {@link sendJson}, or on a read thread). */
export function sendJsonText(
  res: ServerResponse,
  text: string,
  status = 200,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/**
 * Resolves once `res` can take more, or is gone — removing both listeners either way, so a
 * slow download's many waits leave none behind (one `close` listener per wait used to pile up
 * into a MaxListenersExceededWarning).
 */
export function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** A download's headers: its type, never cached, offered as `filename` when it has one. */
function downloadHeaders(contentType: string, filename?: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': contentType,
    'cache-control': 'no-store',
  };
  if (filename) {
    const ascii = filename.replace(/[^\w.-]/g, '_');
    headers['content-disposition'] =
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
  }
  return headers;
}

/** Writes a {@link RawResponse}; a chunked body waits for the socket to drain between chunks. */
export function sendRaw(res: ServerResponse, raw: RawResponse): Promise<void> {
  return sendDownload(res, raw.contentType, raw.filename, raw.body);
}

/**
 * Writes a download: a string whole, chunks (made here, or arriving from a read thread) each
 * after the socket has drained. Leaving early — the client went away — returns the iterator,
 * which ends whatever produces the chunks.
 */
export async function sendDownload(
  res: ServerResponse,
  contentType: string,
  filename: string | undefined,
  body: string | Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  const headers = downloadHeaders(contentType, filename);
  if (typeof body === 'string') {
    res.writeHead(200, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
    return;
  }
  res.writeHead(200, headers);
  try {
    for await (const chunk of body) {
      if (res.destroyed) return;
      if (!res.write(chunk)) await drainedOrClosed(res);
    }
    res.end();
  } catch {
    // Headers are gone: the only honest signal left is a cut connection.
    res.destroy();
  }
}
