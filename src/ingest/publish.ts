import { projectRef } from '../store/project-ref.js';
import { acceptedCount, type BatchRecord, type BatchWriteResult } from '../store/batch-record.js';
import type { LiveBus } from './bus.js';

/**
 * Announces one stored request on the live bus: its batch, then each row it wrote — or, with
 * `rows: false`, only the batch (its counts say what it held). `accepted` overrides the
 * batch's accepted count, for a request whose accepted items are not payloads (proxy content).
 */
export function publishWritten(
  bus: LiveBus,
  record: BatchRecord,
  written: BatchWriteResult,
  rows = true,
  accepted = acceptedCount(record),
): void {
  if (bus.size === 0) return;
  const { batchId, projectId } = written;
  bus.publish({
    type: 'batch',
    data: {
      id: batchId,
      project_id: projectId,
      key_prefix: record.keyPrefix,
      project_ref: record.keySha256 === null ? null : projectRef(record.keySha256),
      received_ms: record.receivedMs,
      status: record.status,
      accepted,
      rejected: record.rejections.length,
      body_bytes: record.bodyBytes,
      error: record.error,
      user_agent: record.userAgent,
      method: record.method ?? null,
      path: record.path ?? null,
      hint: record.hint ?? null,
      repeats: 1,
      last_received_ms: null,
    },
  });
  if (!rows) return;
  record.calls.forEach((c, i) => {
    bus.publish({
      type: 'call',
      data: {
        id: written.callIds[i]!,
        project_id: projectId!,
        batch_id: batchId,
        ...c.payload,
        started_ms: c.startedMs,
        received_ms: record.receivedMs,
        extra: c.extra,
      },
    });
  });
  record.startups.forEach((s, i) => {
    const { tools, session_id, client_name } = s.payload;
    bus.publish({
      type: 'startup',
      data: {
        id: written.startupIds[i]!,
        project_id: projectId!,
        batch_id: batchId,
        session_id,
        client_name,
        received_ms: record.receivedMs,
        tools,
        extra: s.extra,
      },
    });
  });
  (record.agreements ?? []).forEach((a, i) => {
    bus.publish({
      type: 'agreement',
      data: {
        id: written.agreementIds[i]!,
        project_id: projectId!,
        batch_id: batchId,
        ...a.payload,
        window_ms: a.payload.window_ms ?? null,
        checked_ms: a.checkedMs,
        received_ms: record.receivedMs,
        extra: a.extra,
      },
    });
  });
  record.rejections.forEach((r, i) => {
    bus.publish({
      type: 'rejection',
      data: {
        id: written.rejectionIds[i]!,
        batch_id: batchId,
        project_id: projectId,
        key_prefix: record.keyPrefix,
        project_ref: record.keySha256 === null ? null : projectRef(record.keySha256),
        received_ms: record.receivedMs,
        item_index: r.index,
        reason: r.reason,
        item: r.item,
        truncated: r.truncated,
      },
    });
  });
}
