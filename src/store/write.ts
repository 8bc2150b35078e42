import type Database from 'better-sqlite3';
import { acceptedCount, type BatchRecord, type BatchWriteResult } from './batch-record.js';
import type { InsertedCall } from './derived.js';

const json = (v: Record<string, unknown> | null): string | null => (v ? JSON.stringify(v) : null);

/**
 * Prepares the ingest statements once and returns the one function that writes a whole
 * request — project, batch, calls, startups and rejections — in a single transaction.
 * `onCallsInserted` runs inside that transaction (derived facts, or nothing when deferred).
 */
export function createBatchWriter(
  db: Database.Database,
  onCallsInserted: (calls: readonly InsertedCall[]) => void,
): (record: BatchRecord) => BatchWriteResult {
  return db.transaction(createBatchInserts(db, onCallsInserted));
}

/**
 * The same writes without a transaction of their own, for a caller that writes many requests
 * in one (the spool applying a slice) and would otherwise pay a savepoint per request.
 */
export function createBatchInserts(
  db: Database.Database,
  onCallsInserted: (calls: readonly InsertedCall[]) => void,
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
  const insertCall = db.prepare(
    `INSERT INTO calls (project_id, batch_id, session_id, client_name, tool_name, started_at, started_ms,
       duration_ms, outcome, response_bytes, is_empty, args_hash, received_ms, extra, omitted)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
    const inserted: InsertedCall[] = [];
    const startupIds: number[] = [];
    const agreementIds: number[] = [];
    if (projectId !== null) {
      for (const c of r.calls) {
        const p = c.payload;
        const id = Number(
          insertCall.run(
            projectId,
            batchId,
            p.session_id,
            p.client_name,
            p.tool_name,
            p.started_at,
            c.startedMs,
            p.duration_ms,
            p.outcome,
            p.response_bytes,
            p.is_empty ? 1 : 0,
            p.args_hash,
            r.receivedMs,
            json(c.extra),
            c.omitted ?? 0,
          ).lastInsertRowid,
        );
        inserted.push({
          id,
          projectId,
          sessionId: p.session_id,
          toolName: p.tool_name,
          startedMs: c.startedMs,
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
      if (inserted.length > 0) onCallsInserted(inserted);
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
      callIds: inserted.map((c) => c.id),
      startupIds,
      agreementIds,
      rejectionIds,
    };
  };
}
