/** A long proxied session for the message log's virtualization: pings and their answers. */
import { expect } from '@playwright/test';
import {
  MAX_MESSAGES_PER_POST,
  PROXY_CONTENT_PATH,
  type ProxyMessage,
} from '../src/shared/proxy-content.js';
import { CONTENT_KEY } from './content-seed.js';
import type { DevtoolsServer } from './server.js';
import { call, ingestAll } from './ui-helpers.js';

export const LONG_SESSION = 's_0000000c0a80';

/** A proxied session of `count` messages (pings and their answers), posted as the proxy splits them. */
export async function seedLongSession(
  devtools: DevtoolsServer,
  count: number,
  session = LONG_SESSION,
): Promise<void> {
  const t0 = Date.now() - 3_600_000;
  await ingestAll(
    devtools,
    [
      {
        v: 1,
        type: 'startup',
        session_id: session,
        client_name: 'e2e-client',
        sdk: 'mcpulse-devtools-proxy@0.0.0-e2e',
        tools: [{ name: 'read_file', schema_bytes: 120 }],
      },
      call({ session, tool: 'read_file', at: t0 }),
    ],
    CONTENT_KEY,
  );
  await postMessages(devtools, pings(0, count, t0), session);
}

/** Pings and their answers, seq `from` to `from + count - 1`, 100 ms apart from `t0`. */
function pings(from: number, count: number, t0: number): ProxyMessage[] {
  return Array.from({ length: count }, (_, i) => {
    const seq = from + i;
    const id = Math.floor(seq / 2) + 1;
    const fromClient = seq % 2 === 0;
    const body = fromClient
      ? `{"jsonrpc":"2.0","id":${id},"method":"ping"}`
      : `{"jsonrpc":"2.0","id":${id},"result":{}}`;
    return {
      seq,
      direction: fromClient ? 'client' : 'server',
      at_ms: t0 + i * 100,
      method: 'ping',
      rpc_id: String(id),
      kind: fromClient ? 'request' : 'result',
      body,
      truncated: false,
      bytes: body.length,
    };
  });
}

/** Posts messages to the content route as the proxy splits them. */
async function postMessages(
  devtools: DevtoolsServer,
  messages: ProxyMessage[],
  session = LONG_SESSION,
): Promise<void> {
  for (let i = 0; i < messages.length; i += MAX_MESSAGES_PER_POST) {
    const res = await fetch(devtools.url + PROXY_CONTENT_PATH, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${CONTENT_KEY}`,
        'content-type': 'application/json',
        ...devtools.headers,
      },
      body: JSON.stringify({
        v: 1,
        session_id: session,
        messages: messages.slice(i, i + MAX_MESSAGES_PER_POST),
      }),
    });
    expect(res.status, await res.text()).toBeLessThan(300);
  }
}

/**
 * `count` more pings from seq `from` on, and a call beside them: the call is what the live
 * stream announces, as it does while a proxied session runs.
 */
export async function appendToLongSession(
  devtools: DevtoolsServer,
  from: number,
  count: number,
): Promise<void> {
  const t0 = Date.now() - 1000;
  await ingestAll(
    devtools,
    [call({ session: LONG_SESSION, tool: 'read_file', at: t0 })],
    CONTENT_KEY,
  );
  await postMessages(devtools, pings(from, count, t0));
}
