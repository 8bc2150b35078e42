/** Row shapes of the core API (src/server/api/core-routes.ts). Times are UTC epoch ms. */
import type { SpoolState } from '../../../src/ingest/spool';

export type Outcome = 'ok' | 'bad_args' | 'tool_error' | 'crashed';
/** The five-way split the metrics use: `ok` means ok and not empty. */
export type OutcomeKey = 'ok' | 'empty' | 'bad_args' | 'tool_error' | 'crashed';
export const OUTCOME_KEYS: OutcomeKey[] = ['ok', 'empty', 'bad_args', 'tool_error', 'crashed'];
export const OUTCOME_LABEL: Record<OutcomeKey, string> = {
  ok: 'ok',
  empty: 'empty',
  bad_args: 'bad args',
  tool_error: 'tool error',
  crashed: 'crashed',
};

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
} from '../../../src/store/types';

export function outcomeKey(c: { outcome: Outcome; is_empty: boolean }): OutcomeKey {
  return c.outcome === 'ok' && c.is_empty ? 'empty' : c.outcome;
}
