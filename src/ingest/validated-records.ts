/**
 * The records of spooled requests as they were validated when acknowledged, kept (bounded)
 * so applying them moments later need not parse and validate every body a second time —
 * about a tenth of the CPU of applying a call (issue 19).
 *
 * Only a cache: the spool row stays the truth. A request applied after a restart, after the
 * cache was full, or after a failed slice (taking is final, the transaction may roll back)
 * is rebuilt from its body as before, and gives the same record.
 */
import type { BatchRecord } from '../store/index.js';
import type { SpooledRequest } from '../store/spool.js';

/** Items kept at most (a validated call is a few hundred bytes: tens of MB at worst). */
const MAX_ITEMS = 50_000;

interface Kept {
  record: BatchRecord;
  body: Buffer;
  items: number;
}

/** Validated records by spool id. */
export interface ValidatedRecords {
  /** Keeps `record` for the spool row `id` holding `body`, unless the bound is reached. */
  keep(id: number, body: Buffer, record: BatchRecord, items: number): void;
  /**
   * The kept record of `request`, taken out — or `undefined`. Spool ids start again from 1
   * once the table is emptied (clear-all), so a record counts only if it is the request's:
   * same arrival time, same key, same body byte for byte.
   */
  take(request: SpooledRequest): BatchRecord | undefined;
  /** Forgets everything (the spool was emptied behind the applier's back). */
  clear(): void;
}

/** An empty cache of validated records. */
export function createValidatedRecords(maxItems = MAX_ITEMS): ValidatedRecords {
  const kept = new Map<number, Kept>();
  let items = 0;
  return {
    keep(id, body, record, n) {
      if (items + n > maxItems) return;
      kept.set(id, { record, body, items: n });
      items += n;
    },
    take(request) {
      const k = kept.get(request.id);
      if (!k) return undefined;
      kept.delete(request.id);
      items -= k.items;
      const same =
        k.record.receivedMs === request.receivedMs &&
        k.record.keySha256 === request.keySha256 &&
        k.body.equals(request.body);
      return same ? k.record : undefined;
    },
    clear() {
      kept.clear();
      items = 0;
    },
  };
}
