import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { parseTimestamp } from '../../src/ingest/timestamp.js';
import type { CallPayload, StartupPayload } from '../../src/shared/wire.js';
import { openStore, type Store } from '../../src/store/index.js';
import type { BatchRecord } from '../../src/store/batch-record.js';
import { connectionOf } from '../../src/store/connection.js';

export const BASE = Date.UTC(2026, 11, 2, 10, 0, 0);

/** A temp-dir store, removed by `cleanup()`. */
export function tempStore(): Store & { cleanup(): void; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mcpulse-metrics-'));
  const store = openStore(join(dir, 'test.db'));
  return Object.assign(store, {
    dir,
    cleanup: () => {
      try {
        store.close();
      } catch {
        // already closed
      }
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

/** A call payload with defaults; `t` is milliseconds after BASE (or an ISO string). */
export function call(
  p: Partial<CallPayload> & { t?: number | string; tool?: string; hash?: string } = {},
): CallPayload {
  const { t = 0, tool, hash, ...rest } = p;
  return {
    v: 1,
    type: 'call',
    session_id: 's_000000000001',
    client_name: 'test-client',
    tool_name: tool ?? 'search',
    started_at: typeof t === 'string' ? t : new Date(BASE + t).toISOString(),
    duration_ms: 10,
    outcome: 'ok',
    response_bytes: 100,
    is_empty: false,
    args_hash: hash ?? 'aaaaaaaaaaaa',
    ...rest,
  };
}

export function startup(
  tools: [string, number][],
  p: Partial<StartupPayload> = {},
): StartupPayload {
  return {
    v: 1,
    type: 'startup',
    session_id: 's_000000000001',
    client_name: 'test-client',
    tools: tools.map(([name, schema_bytes]) => ({ name, schema_bytes })),
    ...p,
  };
}

/** Writes one request's worth of payloads through the store's real writer. */
export function write(
  store: Store,
  payloads: (CallPayload | StartupPayload)[],
  key = 'mp_live_test',
  receivedMs = Date.now(),
) {
  const record: BatchRecord = {
    keySha256: createHash('sha256').update(key).digest('hex'),
    keyPrefix: key.slice(0, 12),
    receivedMs,
    status: 202,
    bodyBytes: 0,
    userAgent: null,
    error: null,
    calls: payloads
      .filter((x): x is CallPayload => x.type === 'call')
      .map((payload) => ({ payload, startedMs: parseTimestamp(payload.started_at)!, extra: null })),
    startups: payloads
      .filter((x): x is StartupPayload => x.type === 'startup')
      .map((payload) => ({ payload, extra: null, toolExtras: payload.tools.map(() => null) })),
    rejections: [],
  };
  return store.writeBatch(record);
}

/** Every derived column and rollup, for comparing incremental maintenance with a rebuild. */
export function snapshot(store: Store) {
  const q = (sql: string) => connectionOf(store).prepare(sql).all();
  return {
    calls: q(
      'SELECT id, link, prev_link, fcs, run_id, chain, prev_tool, size_bucket FROM calls ORDER BY id',
    ),
    daily: q(
      'SELECT * FROM metrics_daily WHERE calls <> 0 OR units <> 0 ORDER BY project_id, day_ms, tool_name, client_name, oc, link, head',
    ),
    sessions: q('SELECT * FROM metrics_sessions ORDER BY project_id, session_id, client_name'),
    pairs: q(
      'SELECT * FROM metrics_pairs WHERE n <> 0 ORDER BY project_id, day_ms, client_name, from_tool, to_tool',
    ),
    sizes: q(
      'SELECT * FROM metrics_sizes WHERE n <> 0 ORDER BY project_id, day_ms, tool_name, client_name, bucket',
    ),
    latency: q('SELECT * FROM metrics_latency WHERE n <> 0 ORDER BY project_id, tool_name, bucket'),
    durations: q('SELECT * FROM metrics_durations WHERE n <> 0 ORDER BY project_id, duration_ms'),
    hourly: q(
      'SELECT * FROM metrics_hourly WHERE calls <> 0 ORDER BY project_id, hour_ms, oc, link',
    ),
    hourStats: q(
      'SELECT * FROM metrics_hour_stats WHERE calls <> 0 OR units <> 0 ORDER BY project_id, hour_ms, tool_name, client_name, oc, link, head',
    ),
    latencyDays: q(
      'SELECT * FROM metrics_latency_days WHERE n <> 0 ORDER BY project_id, tool_name, day_ms, bucket',
    ),
    latencyHours: q(
      'SELECT * FROM metrics_latency_hours WHERE n <> 0 ORDER BY project_id, tool_name, hour_ms, bucket',
    ),
    sessionHours: q(
      'SELECT * FROM metrics_session_hours WHERE calls <> 0 ORDER BY project_id, hour_ms, session_id, client_name',
    ),
    chains: q('SELECT * FROM metrics_chains ORDER BY run_id'),
  };
}
