/**
 * The call matcher: the client's requests still waiting for an answer, by id, for one MCP
 * session and one direction (the client's requests; the server's own requests are a different
 * id space and never enter here). An id is free again once answered; a request that reuses an
 * id still pending takes it over.
 */
import { idKey, type RpcId } from './jsonrpc.js';

/** The methods whose answers the proxy reads. */
export type TrackedMethod = 'tools/call' | 'tools/list' | 'initialize';

const TRACKED = new Set<string>(['tools/call', 'tools/list', 'initialize']);

/** Whether a client request's answer matters to telemetry. */
export function isTracked(method: string): method is TrackedMethod {
  return TRACKED.has(method);
}

/** A request waiting for its answer. */
export interface PendingRequest {
  method: TrackedMethod;
  params: unknown;
  /** When the relay saw it, in epoch milliseconds with sub-millisecond precision. */
  at: number;
  /** The client sent `notifications/cancelled` for it. */
  cancelled: boolean;
}

/** Requests in flight, by id key. */
export class PendingRequests {
  private readonly byKey = new Map<string, PendingRequest>();

  /** Starts waiting for `id`'s answer; returns its key and the request it displaced, if any. */
  start(
    id: RpcId,
    method: TrackedMethod,
    params: unknown,
    at: number,
  ): { key: string; displaced: PendingRequest | undefined } {
    const key = idKey(id);
    const displaced = this.byKey.get(key);
    this.byKey.set(key, { method, params, at, cancelled: false });
    return { key, displaced };
  }

  /** Marks `id` as cancelled by the client (it may still be answered). */
  cancel(id: RpcId): void {
    const pending = this.byKey.get(idKey(id));
    if (pending) pending.cancelled = true;
  }

  /** The request an answer with `id` finishes, no longer pending; undefined if none waits. */
  answer(id: RpcId): PendingRequest | undefined {
    return this.take(idKey(id));
  }

  /** Removes and returns the request under `key`. */
  take(key: string): PendingRequest | undefined {
    const pending = this.byKey.get(key);
    if (pending) this.byKey.delete(key);
    return pending;
  }

  /** Every key still waiting. */
  keys(): string[] {
    return [...this.byKey.keys()];
  }
}
