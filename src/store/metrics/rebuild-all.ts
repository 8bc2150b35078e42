/**
 * For tests and the benches: make every derived fact and rollup exact from the raw calls, which
 * leaves no call pending for the deferred queue. The writer's work, kept out of the queries.
 */
import { connectionOf } from '../connection.js';
import { markAllDerived } from '../derived-queue.js';
import type { Store } from '../index.js';
import { createMetricsMaintainer } from './maintain.js';

/** Rebuilds every fact and rollup of `store` in one transaction. */
export function rebuildAllMetrics(store: Store): void {
  const db = connectionOf(store);
  const maintainer = createMetricsMaintainer(db);
  db.transaction(() => {
    maintainer.rebuildAll();
    markAllDerived(db);
  })();
}
