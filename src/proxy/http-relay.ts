/**
 * The Streamable HTTP relay: a local listener that forwards every request to the target server
 * and streams every answer back as it arrives — JSON bodies and SSE streams alike, chunk by
 * chunk, bodies untouched — while the observer reads copies on the side.
 *
 * Only the `host` header and the hop-by-hop headers (which describe one connection, not the
 * message) are not passed through; everything else, bodies included, goes across unchanged.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TrafficObserver } from './observer.js';
import { SseReader } from './sse.js';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Options for {@link startHttpRelay}. */
export interface HttpRelayOptions {
  /** The server's MCP endpoint, e.g. `http://localhost:3000/mcp`. */
  target: URL;
  /** Port to listen on (0 picks one); loopback only. */
  port: number;
  host?: string;
  observer: TrafficObserver;
}

/** A listening relay. */
export interface HttpRelay {
  /** The relay's URL for the target's path, e.g. `http://127.0.0.1:8808/mcp`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Headers without the hop-by-hop ones (and `host`, which names the relay, not the target). */
function passHeaders(raw: string[], dropHost: boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || (dropHost && name === 'host')) continue;
    out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** Whether a body is plain (readable) JSON or SSE, or something the observer leaves alone. */
function bodyKind(headers: http.IncomingHttpHeaders): 'json' | 'sse' | null {
  const encoding = headers['content-encoding'];
  if (encoding && encoding !== 'identity') return null;
  const type = String(headers['content-type'] ?? '').toLowerCase();
  if (type.includes('text/event-stream')) return 'sse';
  if (type.includes('json')) return 'json';
  return null;
}

/** JSON-RPC's "server error" range is -32000..-32099; this one says the server is unreachable. */
export const UNREACHABLE_CODE = -32000;

/** The JSON-RPC id of a request body (the first of a batch), or null when it has none. */
function requestId(body: string): string | number | null {
  try {
    const parsed: unknown = JSON.parse(body);
    const first: unknown = Array.isArray(parsed) ? parsed[0] : parsed;
    const id = (first as { id?: unknown } | null)?.id;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/** Answers a request the target could not be reached for: 502 with a JSON-RPC error. */
function sendUnreachable(
  res: http.ServerResponse,
  target: URL,
  error: NodeJS.ErrnoException,
  body: string,
): void {
  const why = error.code ?? error.message;
  const message = `mcpulse-devtools proxy: the MCP server at ${target.href} could not be reached (${why})`;
  const payload = JSON.stringify({
    jsonrpc: '2.0',
    id: requestId(body),
    error: { code: UNREACHABLE_CODE, message, data: { target: target.href, cause: why } },
  });
  res.writeHead(502, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

/** Starts the relay. */
export async function startHttpRelay(options: HttpRelayOptions): Promise<HttpRelay> {
  const { target, observer } = options;
  const secure = target.protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const request = secure ? https.request : http.request;
  let exchanges = 0;

  const server = http.createServer((req, res) => {
    const exchange = ++exchanges;
    const sessionHeader = req.headers['mcp-session-id'];
    // Before the server names the session, the exchange is its own scope; see link() below.
    const scope = typeof sessionHeader === 'string' ? sessionHeader : `exchange:${exchange}`;
    const tracked: string[] = [];
    const requestKind = bodyKind(req.headers);
    const requestParts: Buffer[] = [];

    const upstream = request({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      // Node takes a flat [name, value, …] list (its types say only an object): the client's
      // headers in the client's order and spelling, repeated ones kept apart.
      headers: [...passHeaders(req.rawHeaders, true), 'host', target.host] as unknown as
        http.OutgoingHttpHeaders | undefined,
      agent,
    });

    // Set once the server could not be reached: the request is still read (for its id), never sent.
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (requestKind === 'json' || failed) requestParts.push(chunk);
      if (failed) return;
      if (!upstream.write(chunk)) {
        req.pause();
        upstream.once('drain', () => req.resume());
      }
    });
    req.on('end', () => {
      if (!failed) upstream.end();
      if (requestKind === 'json' && requestParts.length > 0) {
        try {
          tracked.push(...observer.fromClient(Buffer.concat(requestParts).toString('utf8'), scope));
        } catch {
          // The observer never throws; this is only belt and braces for the relay.
        }
      }
      // Unreachable before the request was read whole: its calls never ran and never will.
      if (failed) observer.abandon(scope, tracked);
    });

    upstream.on('response', (up) => {
      const assigned = up.headers['mcp-session-id'];
      if (typeof assigned === 'string' && assigned !== scope) observer.link(scope, assigned);
      res.writeHead(up.statusCode ?? 502, up.statusMessage, passHeaders(up.rawHeaders, false));
      res.flushHeaders();
      const kind = bodyKind(up.headers);
      const sse = kind === 'sse' ? new SseReader((data) => observer.fromServer(data, scope)) : null;
      const parts: Buffer[] = [];
      up.on('data', (chunk: Buffer) => {
        if (!res.write(chunk)) {
          up.pause();
          res.once('drain', () => up.resume());
        }
        if (sse) sse.push(chunk);
        else if (kind === 'json') parts.push(chunk);
      });
      up.on('end', () => {
        res.end();
        if (kind === 'json' && parts.length > 0)
          observer.fromServer(Buffer.concat(parts).toString('utf8'), scope);
        // The answer is complete: calls it carried that got no result never will.
        observer.abandon(scope, tracked);
      });
      up.on('error', () => {
        res.destroy();
        observer.abandon(scope, tracked);
      });
    });

    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (failed) return;
      failed = true;
      observer.abandon(scope, tracked);
      // Dropped mid-answer: the client sees its connection fail, as it would talking to the
      // server directly. Unreachable before answering: a 502 whose body is a JSON-RPC error for
      // the request's id, so a client says what happened instead of "connection closed".
      if (res.headersSent) return void res.destroy();
      const answer = () =>
        sendUnreachable(res, target, error, Buffer.concat(requestParts).toString('utf8'));
      if (req.readableEnded) answer();
      else {
        req.resume();
        req.once('end', answer);
      }
    });

    res.on('close', () => {
      if (res.writableFinished) return;
      // The client went away (closed an SSE stream): stop the upstream exchange too.
      upstream.destroy();
      observer.abandon(scope, tracked, true);
    });
  });
  // SSE streams stay open as long as the client wants them.
  server.requestTimeout = 0;
  server.timeout = 0;
  server.keepAliveTimeout = 5000;

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}${target.pathname}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
