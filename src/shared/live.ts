/** What `/api/stream` carries: the live events ingest publishes and the renderer and `tail` read. */
import type { AgreementRow, BatchRow, CallRow, RejectionRow, StartupRow } from './rows.js';
import type { SpoolState } from './spool.js';

/** What the live stream carries: one event per stored row, plus the batch they came in. */
export type LiveEvent =
  | { type: 'batch'; data: BatchRow }
  | { type: 'call'; data: CallRow }
  | { type: 'startup'; data: StartupRow }
  | { type: 'agreement'; data: AgreementRow }
  | { type: 'rejection'; data: RejectionRow }
  | { type: 'cleared'; data: { at_ms: number } }
  /** A retention pass deleted rows (every project's views may have changed). */
  | { type: 'retention'; data: { at_ms: number; calls: number; rows: number } }
  /** The ingest spool's backlog changed (at most a few times a second; src/ingest/spool.ts). */
  | { type: 'spool'; data: SpoolState };

export type LiveListener = (event: LiveEvent) => void;
