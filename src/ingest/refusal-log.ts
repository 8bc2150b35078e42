/**
 * Writes refusals to the ingest log at a bounded cost. A misconfigured SDK repeats its mistake
 * every flush, and anything on the machine can flood the port: a refusal identical to one
 * already logged (same signature: status, reason, path, user agent, key) within
 * {@link REPEAT_WINDOW_MS} of it is counted on that row instead of written again — the counts
 * reach the database at most once a second however many arrive. So a repeated refusal costs a
 * map lookup, not a write, and the log stays readable.
 */
import type { BatchRecord } from '../store/batch-record.js';
import type { Store } from '../store/index.js';
import type { LiveBus } from './bus.js';
import { publishWritten } from './publish.js';

/** Identical refusals this close to the row they repeat are counted on it. */
export const REPEAT_WINDOW_MS = 60_000;

/** How often pending repeat counts reach the database. */
const FLUSH_MS = 1000;

/** Signatures remembered; past this the oldest is forgotten (its row is already written). */
const MAX_SIGNATURES = 256;

interface Seen {
  batchId: number;
  /** When the row was written or last counted on. */
  lastMs: number;
  /** Repeats not yet written. */
  pending: number;
}

/** The collapsing writer of refusals. */
export interface RefusalLog {
  /** Logs a refused request (or counts it on the row it repeats). Throws if the store fails. */
  write(record: BatchRecord, signature: string): void;
  /** Writes pending repeat counts now. */
  flush(): void;
  close(): void;
}

/** The signature of an ordinary refusal (401, 400, 413, 429): what makes two the same. */
export const refusalSignature = (r: BatchRecord): string =>
  `${r.status}\n${r.error ?? ''}\n${r.userAgent ?? ''}\n${r.keySha256 ?? ''}`;

/** Builds the log over the store; a new row is published live like any batch. */
export function createRefusalLog(store: Store, bus: LiveBus): RefusalLog {
  const seen = new Map<string, Seen>();
  let timer: NodeJS.Timeout | null = null;

  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    for (const s of seen.values()) {
      if (s.pending === 0) continue;
      try {
        store.countRepeats(s.batchId, s.pending, s.lastMs);
      } catch {
        // The row may be gone (cleared, retention), or the disk full: only a count is lost.
      }
      s.pending = 0;
    }
  };

  return {
    write(record, signature) {
      const last = seen.get(signature);
      if (last && record.receivedMs - last.lastMs < REPEAT_WINDOW_MS) {
        last.pending++;
        last.lastMs = record.receivedMs;
        timer ??= setTimeout(flush, FLUSH_MS).unref();
        return;
      }
      const written = store.writeBatch(record);
      publishWritten(bus, record, written);
      seen.delete(signature);
      seen.set(signature, { batchId: written.batchId, lastMs: record.receivedMs, pending: 0 });
      if (seen.size > MAX_SIGNATURES) {
        const oldest = seen.keys().next().value!;
        if (seen.get(oldest)!.pending > 0) flush();
        seen.delete(oldest);
      }
    },
    flush,
    close: flush,
  };
}
