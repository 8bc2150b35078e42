import type Database from 'better-sqlite3';
import { createMetricsMaintainer } from './metrics/maintain.js';
import type { Row } from './metrics/maintain/rows.js';

export type { Row as StoredCallRow } from './metrics/maintain/rows.js';

/** A call just inserted, as the derived-flag maintainer sees it. */
export interface InsertedCall {
  id: number;
  projectId: number;
  sessionId: string;
  toolName: string;
  startedMs: number;
}

/**
 * Keeps per-call derived facts (retry links, first-call success, chains, tool pairs) and the
 * metrics rollups exact as rows arrive, inside the ingest transaction. See
 * src/store/metrics/maintain.ts and docs/metrics.md.
 */
export interface DerivedMaintainer {
  onCallsInserted(calls: readonly InsertedCall[]): void;
  /** The same for calls whose stored rows the caller has already read (one read fewer). */
  onRowsInserted(rows: readonly Row[]): void;
}

/** Builds the maintainer for an open database (statements prepared once). */
export function createDerivedMaintainer(db: Database.Database): DerivedMaintainer {
  return createMetricsMaintainer(db);
}
