/**
 * Every metrics query, one module per subject under `queries/`. Whole days come from the
 * rollups kept at ingest; partial-day edges, session filters and per-call lists read raw calls
 * through covering indexes. Nothing here interprets the numbers: it returns rows that the pure
 * functions in src/metrics fold.
 */
import type Database from 'better-sqlite3';
import { callsBehindQueries } from './queries/calls-behind.js';
import { chainQueries } from './queries/chains.js';
import { createQueryContext } from './queries/context.js';
import { sessionCountQueries } from './queries/session-counts.js';
import { sessionQueries } from './queries/sessions.js';
import { sizeQueries } from './queries/sizes.js';
import { summaryQueries } from './queries/summary.js';
import { timeseriesQueries } from './queries/timeseries.js';
import { toolQueries } from './queries/tools.js';
import { connectionOf } from '../connection.js';
import type { ReadStore } from '../index.js';

export { CALL_COLUMNS, type FactRow } from './queries/call-rows.js';
export type { ChainRow } from './queries/chains.js';
export type { Percentiles } from './queries/exact-percentiles.js';
export type { SessionRow } from './queries/sessions.js';
export type { RegisteredTool } from './queries/tools.js';

/** Builds the metrics queries for one connection. */
export function createMetricsQueries(db: Database.Database) {
  const ctx = createQueryContext(db);
  const { prepare } = ctx;
  return {
    ...summaryQueries(ctx),
    ...timeseriesQueries(ctx),
    ...sessionCountQueries(ctx),
    ...toolQueries(ctx),
    ...sizeQueries(ctx),
    ...sessionQueries(ctx),
    ...chainQueries(ctx),
    ...callsBehindQueries(ctx),

    /** A stored JSON setting. */
    getSetting(key: string): unknown {
      const v = prepare('SELECT value FROM settings WHERE key = ?').pluck().get(key) as
        string | undefined;
      return v === undefined ? undefined : (JSON.parse(v) as unknown);
    },

    setSetting(key: string, value: unknown): void {
      prepare(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ).run(key, JSON.stringify(value));
    },
  };
}

export type MetricsQueries = ReturnType<typeof createMetricsQueries>;

const cache = new WeakMap<Database.Database, MetricsQueries>();

/** The metrics queries of a store's connection (prepared once per connection). */
export function metricsOf(store: ReadStore): MetricsQueries {
  const db = connectionOf(store);
  let q = cache.get(db);
  if (!q) cache.set(db, (q = createMetricsQueries(db)));
  return q;
}
