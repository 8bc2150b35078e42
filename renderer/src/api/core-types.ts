/** Row shapes of the core API (src/server/api/core-routes.ts). Times are UTC epoch ms. */
import type { SpoolState } from '../../../src/shared/spool';

// The outcome vocabulary is the app's one list (src/shared/outcomes.ts), under the names pages use.
export type { Outcome } from '../../../src/shared/outcomes';
export {
  OUTCOME_CLASSES as OUTCOME_KEYS,
  OUTCOME_LABEL,
  outcomeClassOf as outcomeKey,
  type OutcomeClass as OutcomeKey,
} from '../../../src/shared/outcomes';

// The ingest spool's backlog (`GET /api/spool`, the `spool` event of `/api/stream`): acknowledged
// requests not yet applied, and why applying last failed. The server's own type (type-only).
export type { SpoolState };

export interface Status {
  endpoint: string;
  addresses: string[];
  port: number;
  dbPath: string;
  startedMs: number;
  version: string;
  counts: {
    projects: number;
    calls: number;
    startups: number;
    batches: number;
    rejections: number;
  };
  /** The ingest spool (`null` from a server without one). */
  spool?: SpoolState | null;
}

export interface Project {
  id: number;
  key_prefix: string;
  key_fingerprint: string;
  first_seen_ms: number;
  last_seen_ms: number;
  calls: number;
  sessions: number;
}

// Raw rows come from the store's own types (type-only, nothing from the server is bundled), so
// the API and the UI cannot drift apart.
export type {
  BatchRow as Batch,
  CallRow as Call,
  RejectionRow as Rejection,
  StartupRow as Startup,
} from '../../../src/shared/rows';
