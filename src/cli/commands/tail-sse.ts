/**
 * A server-sent-events reader over fetch, with reconnection: `tail` must survive the dashboard
 * restarting (a rebuild, a crash, a laptop waking up) without the user restarting `tail`.
 */

/** One SSE message. */
export interface SseEvent {
  event: string;
  data: string;
}

/** What the follower reports besides events. */
export type StreamStatus =
  | { kind: 'connected'; attempt: number }
  | { kind: 'waiting'; detail: string; attempt: number }
  | { kind: 'lost' };

/** Options for {@link followStream}. */
export interface FollowOptions {
  url: string;
  /** Extra request headers (the owner token). */
  headers?: Record<string, string>;
  onEvent(event: SseEvent): void;
  onStatus(status: StreamStatus): void;
  signal: AbortSignal;
  /** Delay before reconnecting; grows to 5 s while nothing answers. Default 1000. */
  retryMs?: number;
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

/** Splits a text stream into SSE messages (`event:`/`data:` lines, blank line dispatches). */
export class SseParser {
  private buffer = '';
  private event = 'message';
  private data: string[] = [];

  constructor(private readonly emit: (event: SseEvent) => void) {}

  push(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, nl);
      const skip = this.buffer.startsWith('\r\n', nl) ? 2 : 1;
      this.buffer = this.buffer.slice(nl + skip);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) this.emit({ event: this.event, data: this.data.join('\n') });
      this.event = 'message';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
  }
}

/**
 * The dashboard refused the request itself (a 4xx, e.g. a `project` two projects share):
 * reconnecting would be refused the same way, so following stops with the server's reason.
 */
export class StreamRefusedError extends Error {}

/** Follows `url` until `signal` aborts, reconnecting whenever the stream ends or fails. */
export async function followStream(options: FollowOptions): Promise<void> {
  const base = options.retryMs ?? 1000;
  let attempt = 0;
  let delay = base;
  while (!options.signal.aborted) {
    attempt++;
    let connected = false;
    try {
      const res = await fetch(options.url, {
        headers: { accept: 'text/event-stream', ...options.headers },
        signal: options.signal,
      });
      if (res.status >= 400 && res.status < 500) {
        const body = (await res.json().catch(() => null)) as { error?: string } | null;
        throw new StreamRefusedError(body?.error ?? `HTTP ${res.status}`);
      }
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      connected = true;
      delay = base;
      options.onStatus({ kind: 'connected', attempt });
      const parser = new SseParser(options.onEvent);
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        parser.push(decoder.decode(chunk, { stream: true }));
      }
    } catch (error) {
      if (error instanceof StreamRefusedError) throw error;
      if (options.signal.aborted) return;
      if (!connected) {
        const e = error as { cause?: { code?: string }; message?: string };
        options.onStatus({
          kind: 'waiting',
          detail: e.cause?.code ?? e.message ?? 'error',
          attempt,
        });
      }
    }
    if (options.signal.aborted) return;
    if (connected) options.onStatus({ kind: 'lost' });
    await sleep(delay, options.signal);
    if (!connected) delay = Math.min(delay * 2, 5000);
  }
}
