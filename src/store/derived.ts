import type Database from 'better-sqlite3';

/** A call just inserted, as the derived-flag maintainer sees it. */
export interface InsertedCall {
  id: number;
  projectId: number;
  sessionId: string;
  toolName: string;
  startedMs: number;
}

/**
 * Keeps per-call derived facts (retry links, first-call success, chains) exact as rows arrive,
 * inside the ingest transaction. Owned by the metrics work; see src/metrics.
 */
export interface DerivedMaintainer {
  onCallsInserted(calls: readonly InsertedCall[]): void;
}

/** Builds the maintainer for an open database (statements prepared once). */
export function createDerivedMaintainer(_db: Database.Database): DerivedMaintainer {
  return { onCallsInserted: () => {} };
}
