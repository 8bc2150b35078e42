import type Database from 'better-sqlite3';
import { createMetricsMaintainer } from './metrics/maintain.js';
import type { FreshCall, Row } from './metrics/maintain/rows.js';

export type { FreshCall, Row as StoredCallRow } from './metrics/maintain/rows.js';

/**
 * Keeps per-call derived facts (retry links, first-call success, chains, tool pairs) and the
 * metrics rollups exact as rows arrive, inside the ingest transaction. See
 * src/store/metrics/maintain.ts and docs/metrics.md.
 */
export interface DerivedMaintainer {
  /** Stores new calls (ids assigned, not inserted yet) with their facts. */
  storeCalls(fresh: readonly FreshCall[]): void;
  /** Stores new calls without their facts: pending, for a later {@link onRowsInserted}. */
  insertRaw(fresh: readonly FreshCall[]): void;
  /** Maintains stored calls that are pending, handed their rows as stored. */
  onRowsInserted(rows: readonly Row[]): void;
}

/** Builds the maintainer for an open database (statements prepared once). */
export function createDerivedMaintainer(db: Database.Database): DerivedMaintainer {
  return createMetricsMaintainer(db);
}
