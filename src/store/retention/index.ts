/**
 * Retention: the database never grows without bound.
 *
 * Two caps on raw calls, whichever is hit first (./settings.ts):
 * - age: calls that arrived more than `max_age_days` ago (default 30) are deleted;
 * - size: past `max_calls` calls (default 2,000,000) the oldest are deleted.
 * Startups, the ingest log (batches) and rejected items are deleted by age alone; the latest
 * startup of every project is always kept, because it defines the registered tool set.
 *
 * What is deleted together (./plan.ts): a session's calls go in whole *runs* — from the
 * session's first call up to a point where the next remaining call started more than 30 s
 * later (longer than the retry window), or the whole session. No retry link, chain or ≤ 30 s
 * run spans such a cut, so the metrics engine's forget hook (src/store/metrics/forget.ts)
 * keeps every derived fact and rollup exact in the same transaction — no rebuild. Only when
 * more than `chunkRows` calls in a row have no quiet 30 s between them is a run cut without
 * one (counted in `PassReport.forced_cuts`); the hook then rewrites the run left in place, or,
 * when that run is longer than 1,000 calls, leaves the project to the engine's rebuild (its
 * documented path for any other deletion). A step gathers the runs of several sessions.
 *
 * Applied without blocking ingest (./runner.ts, ./steps.ts): a pass deletes in small
 * transactions (≤ `chunkRows` calls) and yields to the event loop between them, so ingest
 * requests interleave; passes run on an `.unref()`ed timer.
 *
 * What every pass deleted is added up in the file itself (./totals.ts, migration 012), so the
 * calls stored plus the calls retention deleted always equal the calls applied.
 *
 * Clear-all (./clear.ts) deletes every row of every table except `settings`, in one transaction.
 */
export { clearAll, type ClearReport } from './clear.js';
export {
  createRetention,
  retentionFor,
  type DeletedCounts,
  type PassReport,
  type Retention,
  type RetentionOptions,
} from './runner.js';
export { readRetentionTotals, type RetentionTotals } from './totals.js';
export {
  DEFAULT_RETENTION,
  mergeRetentionSettings,
  readRetentionSettings,
  RETENTION_BOUNDS,
  RetentionSettingsError,
  writeRetentionSettings,
  type RetentionSettings,
} from './settings.js';

import { connectionOf } from '../connection.js';
import type { ReadStore, Store } from '../index.js';
import {
  readRetentionSettings,
  writeRetentionSettings,
  type RetentionSettings,
} from './settings.js';
import { readRetentionTotals, type RetentionTotals } from './totals.js';

/** The retention setting in effect for `store`. */
export const retentionSettingsOf = (store: ReadStore): RetentionSettings =>
  readRetentionSettings(connectionOf(store));

/** Validates and saves a change to the retention setting; throws RetentionSettingsError. */
export const saveRetentionSettings = (store: Store, update: unknown): RetentionSettings =>
  writeRetentionSettings(connectionOf(store), update);

/** Everything retention has deleted from `store`'s file (since it was created or cleared). */
export const retentionTotalsOf = (store: ReadStore): RetentionTotals =>
  readRetentionTotals(connectionOf(store));
