/**
 * A small MCPulse producer: instruments `McpServer`s from @modelcontextprotocol/sdk and sends
 * what they do to an MCPulse endpoint, following the wire contract and the three producer
 * rules — never throw, never block a tool call, never store customer data (arguments are
 * hashed, results are measured, neither is kept).
 *
 * ```ts
 * const producer = createProducer({ endpoint: 'http://localhost:7857', key: 'mp_live_dev' });
 * producer.watch(new McpServer({ name: 'mine', version: '1.0.0' }));
 * ```
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { PayloadBuffer, type DeliveryStats } from './buffer.js';
import { watchServer } from './instrument.js';
import { newSessionId } from './measure.js';
import { resolveOptions, type ProducerOptions } from './options.js';

export type { DeliveryStats } from './buffer.js';
export type { ProducerOptions, SendReport } from './options.js';
export { DEFAULTS } from './options.js';
export type { CallPayload, Outcome, Payload, StartupPayload } from './types.js';
export { hashArguments, isEmptyResult, responseBytes } from './measure.js';

/** One producer = one session: a process talking to one endpoint with one key. */
export interface Producer {
  /** `s_` + 12 hex; shared by every server this producer watches. */
  readonly sessionId: string;
  /** False when there is no endpoint or key: everything becomes a no-op. */
  readonly enabled: boolean;
  /** Instruments `server` in place (idempotent) and returns it. */
  watch<T extends McpServer>(server: T): T;
  /** Sends everything buffered now; resolves when done. Never rejects. */
  flush(): Promise<void>;
  /** Final flush; the producer accepts nothing afterwards. Never rejects. */
  close(): Promise<void>;
  stats(): DeliveryStats;
}

/** Creates a producer. Never throws: bad options give a disabled producer. */
export function createProducer(options: ProducerOptions): Producer {
  const resolved = resolveOptions(options);
  const buffer = new PayloadBuffer(resolved);
  const sessionId = newSessionId();
  return {
    sessionId,
    enabled: resolved.enabled,
    watch(server) {
      if (resolved.enabled)
        watchServer(server, {
          sessionId,
          buffer,
          ...(resolved.sessionLabel ? { sessionLabel: resolved.sessionLabel } : {}),
        });
      return server;
    },
    flush: () => buffer.flush(),
    close: () => buffer.close(),
    stats: () => buffer.stats(),
  };
}
