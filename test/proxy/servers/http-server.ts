/**
 * The fixture tools over Streamable HTTP (stateful: one transport per MCP session), in-process
 * on port 0, recording each exchange's request body and the bytes it wrote back — the server's
 * side of the HTTP byte-identity check.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { buildFixtureServer } from './fixture-tools.js';

/** One HTTP exchange as one side saw it. */
export interface Exchange {
  method: string;
  request: Buffer;
  response: Buffer[];
}

const bytes = (chunk: unknown): Buffer =>
  Buffer.isBuffer(chunk)
    ? chunk
    : typeof chunk === 'string'
      ? Buffer.from(chunk)
      : Buffer.from(chunk as Uint8Array);

/** Keeps a copy of everything written to `res`. */
function tap(res: ServerResponse, into: Buffer[]): void {
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function')
      into.push(bytes(chunk));
    return write(chunk, ...rest);
  }) as ServerResponse['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function')
      into.push(bytes(chunk));
    return end(chunk, ...rest);
  }) as ServerResponse['end'];
}

/** Starts the server; `url` is its MCP endpoint. `json`: answer with JSON bodies, not SSE. */
export async function startHttpFixture({ json = false }: { json?: boolean } = {}) {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const exchanges: Exchange[] = [];
  const server = createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const c of req) parts.push(c as Buffer);
    const body = Buffer.concat(parts);
    const exchange: Exchange = { method: req.method ?? '', request: body, response: [] };
    exchanges.push(exchange);
    tap(res, exchange.response);
    const sid = req.headers['mcp-session-id'];
    let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
    if (!transport) {
      const fresh: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: json,
        onsessioninitialized: (id) => void transports.set(id, fresh),
      });
      await buildFixtureServer().connect(fresh);
      transport = fresh;
    }
    await transport.handleRequest(req, res, body.length ? JSON.parse(body.toString()) : undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return {
    url,
    exchanges,
    close: async () => {
      for (const t of transports.values()) await t.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
