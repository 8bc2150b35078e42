/**
 * Ingest: validate → store → publish. Answers exactly as the hosted API would (wire-format §1),
 * but records every refusal and every dropped item so the author can see what production
 * would have dropped silently.
 *
 * Two ways to store: {@link createIngest} writes each request before answering (imports,
 * tests); the server uses {@link createSpooledIngest}, which does the same for a lone request
 * and spools concurrent ones so a burst is acknowledged at the speed of one small insert each.
 */
import type { Store } from '../store/index.js';
import type { LiveBus } from './bus.js';
import { examine, storeFailure, type IngestAnswer, type IngestRequest } from './examine.js';
import { createFileLossCheck } from './file-loss.js';
import { publishWritten } from './publish.js';
import type { RateLimiter } from './rate-limit.js';

export { LiveBus } from './bus.js';
export { RateLimiter } from './rate-limit.js';
export { MAX_BODY_BYTES, storeFailure, type IngestAnswer, type IngestRequest } from './examine.js';
export { createSpooledIngest, spoolEntryOf, type SpooledIngest } from './spool.js';
export { createValidatedRecords, type ValidatedRecords } from './validated-records.js';
export {
  createContentIngest,
  MAX_CONTENT_BODY_BYTES,
  type ContentIngest,
} from './proxy-content.js';
export { startStoredContentRedaction, type RedactionPassReport } from './redaction-pass.js';
export {
  adviseMisdirected,
  INGEST_PATH,
  type MisdirectedAdvice,
  type MisdirectedRequest,
} from './misdirected.js';
export { REPEAT_WINDOW_MS } from './refusal-log.js';

export interface IngestOptions {
  store: Store;
  bus: LiveBus;
  /** The hosted 10,000 payloads/min per key limit; omit to turn it off. */
  rateLimiter?: RateLimiter;
}

/**
 * Builds a handler that stores each request (refusals included, for the ingest log) in one
 * transaction before answering. Never throws for bad input; a store failure (disk full,
 * read-only, locked) becomes a 503.
 */
export function createIngest({ store, bus, rateLimiter }: IngestOptions) {
  const fileLost = createFileLossCheck(store);
  return function handle(req: IngestRequest): IngestAnswer {
    const verdict = examine(req, rateLimiter);
    const lost = fileLost();
    if (lost) return lost;
    try {
      publishWritten(bus, verdict.record, store.writeBatch(verdict.record));
    } catch (error) {
      return storeFailure(error);
    }
    return verdict.answer;
  };
}

export type IngestHandler = ReturnType<typeof createIngest>;
