import type { LiveEvent, LiveListener } from '../shared/live.js';

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
