import type Database from 'better-sqlite3';
import { acceptedCount, type BatchRecord, type BatchWriteResult } from './batch-record.js';
import type { FreshCall } from './metrics/maintain/rows.js';
import { stringifyJson } from '../shared/deep-json.js';

const json = (v: Record<string, unknown> | null): string | null => (v ? stringifyJson(v) : null);

/**
 * Where a request's calls go. The writer does not insert them itself: the metrics engine
 * computes their derived facts first and stores each row once, facts included (one write per
 * call instead of an insert and then an update). Ids are assigned here, in arrival order.
 */
export interface CallSink {
  /** The id the next call gets: `max(id) + 1` of the table, past any calls still held. */
  nextId(): number;
  /** Takes one request's calls (ids from {@link nextId}, in order) — now or later in the same transaction. */
  take(calls: readonly FreshCall[]): void;
}

/**
 * Prepares the ingest statements once and returns the one function that writes a whole
 * request — project, batch, calls, startups and rejections — in a single transaction.
 * The sink stores the calls inside that transaction.
 */
export function createBatchWriter(
  db: Database.Database,
  sink: CallSink,
): (record: BatchRecord) => BatchWriteResult {
  return db.transaction(createBatchInserts(db, sink));
}

/**
 * The same writes without a transaction of their own, for a caller that writes many requests
 * in one (the spool applying a slice) and would otherwise pay a savepoint per request.
 */
export function createBatchInserts(
  db: Database.Database,
  sink: CallSink,
): (record: BatchRecord) => BatchWriteResult {
  const upsertProject = db.prepare<[string, string, number, number], { id: number }>(
    `INSERT INTO projects (key_sha256, key_prefix, first_seen_ms, last_seen_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (key_sha256) DO UPDATE SET last_seen_ms = max(last_seen_ms, excluded.last_seen_ms)
     RETURNING id`,
  );
  const insertBatch = db.prepare(
    `INSERT INTO batches (project_id, received_ms, status, accepted, rejected, body_bytes, error, user_agent,
       method, path, hint)
     VALUES (@projectId, @receivedMs, @status, @accepted, @rejected, @bodyBytes, @error, @userAgent,
       @method, @path, @hint)`,
  );
  const insertStartup = db.prepare(
    `INSERT INTO startups (project_id, batch_id, session_id, client_name, received_ms, extra, omitted)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertTool = db.prepare(
    `INSERT INTO startup_tools (startup_id, position, name, schema_bytes, extra) VALUES (?, ?, ?, ?, ?)`,
  );
  const insertAgreement = db.prepare(
    `INSERT INTO agreements (project_id, batch_id, session_id, field, tool_a, tool_b, agreed,
       checked_at, checked_ms, window_ms, received_ms, extra)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertRejection = db.prepare(
    `INSERT INTO rejections (batch_id, project_id, received_ms, item_index, reason, item, truncated)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );

  return (r: BatchRecord): BatchWriteResult => {
    const projectId =
      r.keySha256 && r.keyPrefix
        ? upsertProject.get(r.keySha256, r.keyPrefix, r.receivedMs, r.receivedMs)!.id
        : null;
    const batchId = Number(
      insertBatch.run({
        projectId,
        receivedMs: r.receivedMs,
        status: r.status,
        accepted: acceptedCount(r),
        rejected: r.rejections.length,
        bodyBytes: r.bodyBytes,
        error: r.error,
        userAgent: r.userAgent,
        method: r.method ?? null,
        path: r.path ?? null,
        hint: r.hint ?? null,
      }).lastInsertRowid,
    );
    const fresh: FreshCall[] = [];
    const startupIds: number[] = [];
    const agreementIds: number[] = [];
    if (projectId !== null) {
      let id = r.calls.length > 0 ? sink.nextId() : 0;
      for (const c of r.calls) {
        const p = c.payload;
        fresh.push({
          id: id++,
          project_id: projectId,
          batch_id: batchId,
          session_id: p.session_id,
          client_name: p.client_name,
          tool_name: p.tool_name,
          started_at: p.started_at,
          started_ms: c.startedMs,
          duration_ms: p.duration_ms,
          outcome: p.outcome,
          response_bytes: p.response_bytes,
          is_empty: p.is_empty ? 1 : 0,
          args_hash: p.args_hash,
          received_ms: r.receivedMs,
          extra: json(c.extra),
          omitted: c.omitted ?? 0,
          link: 0,
          prev_link: 0,
          fcs: 0,
          run_id: 0,
          chain: 0,
          prev_tool: null,
        });
      }
      for (const s of r.startups) {
        const p = s.payload;
        const id = Number(
          insertStartup.run(
            projectId,
            batchId,
            p.session_id,
            p.client_name,
            r.receivedMs,
            json(s.extra),
            s.omitted ?? 0,
          ).lastInsertRowid,
        );
        p.tools.forEach((t, i) =>
          insertTool.run(id, i, t.name, t.schema_bytes, json(s.toolExtras[i] ?? null)),
        );
        startupIds.push(id);
      }
      for (const a of r.agreements ?? []) {
        const p = a.payload;
        agreementIds.push(
          Number(
            insertAgreement.run(
              projectId,
              batchId,
              p.session_id,
              p.field,
              p.tool_a,
              p.tool_b,
              p.agreed ? 1 : 0,
              p.checked_at,
              a.checkedMs,
              p.window_ms ?? null,
              r.receivedMs,
              json(a.extra),
            ).lastInsertRowid,
          ),
        );
      }
      if (fresh.length > 0) sink.take(fresh);
    }
    const rejectionIds = r.rejections.map((x) =>
      Number(
        insertRejection.run(
          batchId,
          projectId,
          r.receivedMs,
          x.index,
          x.reason,
          x.item,
          x.truncated ? 1 : 0,
        ).lastInsertRowid,
      ),
    );
    return {
      batchId,
      projectId,
      callIds: fresh.map((c) => c.id),
      startupIds,
      agreementIds,
      rejectionIds,
    };
  };
}
