/**
 * Test plumbing for the producer: a fake `fetch` that records every request, and a watched
 * McpServer connected to a real SDK client over in-memory transports.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Payload } from '../../src/producer/index.js';

export interface Recorded {
  url: string;
  headers: Record<string, string>;
  batch: Payload[];
}

/** A fetch that answers `status` (or runs `behave`) and records each request. */
export function recordingFetch(
  behave: (n: number, signal: AbortSignal | undefined) => Promise<Response> | Response = () =>
    new Response(null, { status: 202 }),
): { fetch: typeof fetch; requests: Recorded[]; payloads: () => Payload[] } {
  const requests: Recorded[] = [];
  const impl = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    requests.push({
      url: String(url),
      headers,
      batch: (JSON.parse(String(init?.body)) as { batch: Payload[] }).batch,
    });
    return behave(requests.length, init?.signal ?? undefined);
  };
  return {
    fetch: impl as typeof fetch,
    requests,
    payloads: () => requests.flatMap((r) => r.batch),
  };
}

/** Connects a real client named `clientName` to `server`. */
export async function connect(server: McpServer, clientName = 'test-client'): Promise<Client> {
  const client = new Client({ name: clientName, version: '1.0.0' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  await client.connect(a);
  return client;
}

/** Waits for a condition, polling. */
export async function until(check: () => boolean, ms = 3000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
