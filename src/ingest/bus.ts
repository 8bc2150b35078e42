import type { BatchRow, CallRow, RejectionRow, StartupRow } from '../store/types.js';
import type { SpoolState } from './spool.js';

/** What the live stream carries: one event per stored row, plus the batch they came in. */
export type LiveEvent =
  | { type: 'batch'; data: BatchRow }
  | { type: 'call'; data: CallRow }
  | { type: 'startup'; data: StartupRow }
  | { type: 'rejection'; data: RejectionRow }
  | { type: 'cleared'; data: { at_ms: number } }
  /** The ingest spool's backlog changed (at most a few times a second; src/ingest/spool.ts). */
  | { type: 'spool'; data: SpoolState };

export type LiveListener = (event: LiveEvent) => void;

/**
 * A tiny synchronous pub/sub: ingest publishes after the transaction commits, the SSE endpoint
 * subscribes. A throwing listener never breaks ingest or the other listeners.
 */
export class LiveBus {
  private readonly listeners = new Set<LiveListener>();

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: LiveEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken subscriber (say, a closed socket) must not cost anyone else their event.
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
