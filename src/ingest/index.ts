/**
 * Ingest: validate → store → publish. Answers exactly as the hosted API would (wire-format §1),
 * but records every refusal and every dropped item so the author can see what production
 * would have dropped silently.
 */
import type { Store } from '../store/index.js';
import type {
  AcceptedCall,
  AcceptedStartup,
  BatchRecord,
  RejectedItem,
} from '../store/batch-record.js';
import type { LiveBus } from './bus.js';
import { bearerKey, fingerprintKey } from './key.js';
import type { RateLimiter } from './rate-limit.js';
import { snapshotItem, validateItem } from './validate-item.js';
import { LIMITS } from './wire.js';

export { LiveBus } from './bus.js';
export type { LiveEvent } from './bus.js';
export { RateLimiter } from './rate-limit.js';

/** The largest body read; SDKs send at most 1000 small payloads, far below this. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** One request to `/v1/ingest`, already read off the socket. */
export interface IngestRequest {
  authorization: string | undefined;
  contentType: string | undefined;
  userAgent: string | undefined;
  /** The body, or `'too-large'` when it passed {@link MAX_BODY_BYTES} and reading stopped. */
  body: Buffer | 'too-large';
  receivedMs: number;
}

/** What to answer. */
export interface IngestAnswer {
  status: number;
  headers: Record<string, string>;
  /** `undefined` for the empty 202 body. */
  body?: { error: string };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface IngestOptions {
  store: Store;
  bus: LiveBus;
  /** The hosted 10,000 payloads/min per key limit; omit to turn it off. */
  rateLimiter?: RateLimiter;
}

/** Builds the ingest handler for one store. */
export function createIngest({ store, bus, rateLimiter }: IngestOptions) {
  /** Records a refused request (so the ingest log shows it) and builds the error answer. */
  function refuse(
    req: IngestRequest,
    status: number,
    error: string,
    key: { sha256: string; prefix: string } | null,
  ): IngestAnswer {
    const sample =
      req.body === 'too-large'
        ? { item: '', truncated: true }
        : snapshotItem(req.body.toString('utf8'));
    const rejection: RejectedItem = { index: null, reason: error, ...sample };
    persist(req, key, status, error, [], [], [rejection]);
    return { status, headers: {}, body: { error } };
  }

  function persist(
    req: IngestRequest,
    key: { sha256: string; prefix: string } | null,
    status: number,
    error: string | null,
    calls: AcceptedCall[],
    startups: AcceptedStartup[],
    rejections: RejectedItem[],
  ): void {
    const record: BatchRecord = {
      keySha256: key?.sha256 ?? null,
      keyPrefix: key?.prefix ?? null,
      receivedMs: req.receivedMs,
      status,
      bodyBytes: req.body === 'too-large' ? MAX_BODY_BYTES : req.body.length,
      userAgent: req.userAgent ?? null,
      error,
      calls,
      startups,
      rejections,
    };
    const written = store.writeBatch(record);
    publish(written.batchId, record, written);
  }

  function publish(
    batchId: number,
    record: BatchRecord,
    written: ReturnType<Store['writeBatch']>,
  ): void {
    if (bus.size === 0) return;
    const projectId = written.projectId;
    bus.publish({
      type: 'batch',
      data: {
        id: batchId,
        project_id: projectId,
        key_prefix: record.keyPrefix,
        received_ms: record.receivedMs,
        status: record.status,
        accepted: record.calls.length + record.startups.length,
        rejected: record.rejections.length,
        body_bytes: record.bodyBytes,
        error: record.error,
        user_agent: record.userAgent,
      },
    });
    record.calls.forEach((c, i) => {
      const p = c.payload;
      bus.publish({
        type: 'call',
        data: {
          id: written.callIds[i]!,
          project_id: projectId!,
          batch_id: batchId,
          ...p,
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
    record.rejections.forEach((r, i) => {
      bus.publish({
        type: 'rejection',
        data: {
          id: written.rejectionIds[i]!,
          batch_id: batchId,
          project_id: projectId,
          key_prefix: record.keyPrefix,
          received_ms: record.receivedMs,
          item_index: r.index,
          reason: r.reason,
          item: r.item,
          truncated: r.truncated,
        },
      });
    });
  }

  /**
   * Handles one request. Never throws for bad input; a store failure (disk full, read-only,
   * locked) becomes a 503 so no SDK is told "stored" for data that was not.
   */
  return function handle(req: IngestRequest): IngestAnswer {
    try {
      return decide(req);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { status: 503, headers: {}, body: { error: `could not store the batch: ${reason}` } };
    }
  };

  function decide(req: IngestRequest): IngestAnswer {
    const rawKey = bearerKey(req.authorization);
    if (rawKey === null) {
      return refuse(
        req,
        401,
        'missing or empty bearer key: send "Authorization: Bearer <key>" (any non-empty key works locally)',
        null,
      );
    }
    const key = fingerprintKey(rawKey);
    if (req.body === 'too-large') {
      return refuse(req, 413, `body over ${MAX_BODY_BYTES / 1024 / 1024} MiB`, key);
    }
    let text: string;
    try {
      text = utf8.decode(req.body);
    } catch {
      return refuse(req, 400, 'body is not valid UTF-8', key);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return refuse(req, 400, `body is not valid JSON: ${(error as Error).message}`, key);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return refuse(
        req,
        400,
        `expected a JSON object {"batch":[…]}, received ${Array.isArray(parsed) ? 'array' : parsed === null ? 'null' : typeof parsed}`,
        key,
      );
    }
    const batch = (parsed as { batch?: unknown }).batch;
    if (!Array.isArray(batch)) {
      return refuse(
        req,
        400,
        batch === undefined
          ? 'batch: Required'
          : `batch: Expected array, received ${batch === null ? 'null' : typeof batch}`,
        key,
      );
    }
    if (batch.length > LIMITS.maxBatch) {
      return refuse(
        req,
        413,
        `batch: at most ${LIMITS.maxBatch} payloads per request, received ${batch.length}`,
        key,
      );
    }
    if (rateLimiter && !rateLimiter.tryTake(key.sha256, batch.length)) {
      return refuse(
        req,
        429,
        `over ${rateLimiter.perMinute.toLocaleString('en-US')} payloads per minute for this key: production refuses the whole batch`,
        key,
      );
    }
    const calls: AcceptedCall[] = [];
    const startups: AcceptedStartup[] = [];
    const rejections: RejectedItem[] = [];
    batch.forEach((item, index) => {
      const verdict = validateItem(item, index);
      if (verdict.kind === 'call') calls.push(verdict.call);
      else if (verdict.kind === 'startup') startups.push(verdict.startup);
      else rejections.push(verdict.rejection);
    });
    persist(req, key, 202, null, calls, startups, rejections);
    return {
      status: 202,
      headers: {
        'x-mcpulse-accepted': String(calls.length + startups.length),
        'x-mcpulse-rejected': String(rejections.length),
      },
    };
  }
}

export type IngestHandler = ReturnType<typeof createIngest>;
