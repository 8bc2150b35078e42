/**
 * What the hosted API would answer to one request (wire-format §1), decided before anything
 * is stored: the key, the body's encoding and envelope, the per-key rate limit, and every item
 * on its own. Pure apart from the rate limiter's bucket.
 */
import type {
  AcceptedAgreement,
  AcceptedCall,
  AcceptedStartup,
  BatchRecord,
  RejectedItem,
} from '../store/batch-record.js';
import { acceptedCount } from '../store/batch-record.js';
import { bearerKey, fingerprintKey, type KeyFingerprint } from './key.js';
import type { RateLimiter } from './rate-limit.js';
import { snapshotItem, validateItem } from './validate-item.js';
import { LIMITS } from '../shared/wire.js';

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

/** The decision: a refusal (recorded for the ingest log) or a batch to store. */
export type Verdict =
  | { kind: 'refused'; answer: IngestAnswer; record: BatchRecord }
  | {
      kind: 'accepted';
      answer: IngestAnswer;
      record: BatchRecord;
      key: KeyFingerprint;
      /** The body as received (what the spool keeps). */
      body: Buffer;
      /** Items in the batch, accepted or not. */
      items: number;
    };

/** The answer when the store could not take a batch: never a 202 for data not stored. */
export function storeFailure(error: unknown): IngestAnswer {
  const reason = error instanceof Error ? error.message : String(error);
  return { status: 503, headers: {}, body: { error: `could not store the batch: ${reason}` } };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Validates each item on its own: bad ones are dropped with a reason, never their neighbours. */
export function validateBatch(batch: readonly unknown[]): {
  calls: AcceptedCall[];
  startups: AcceptedStartup[];
  agreements: AcceptedAgreement[];
  rejections: RejectedItem[];
} {
  const calls: AcceptedCall[] = [];
  const startups: AcceptedStartup[] = [];
  const agreements: AcceptedAgreement[] = [];
  const rejections: RejectedItem[] = [];
  batch.forEach((item, index) => {
    const verdict = validateItem(item, index);
    if (verdict.kind === 'call') calls.push(verdict.call);
    else if (verdict.kind === 'startup') startups.push(verdict.startup);
    else if (verdict.kind === 'agreement') agreements.push(verdict.agreement);
    else rejections.push(verdict.rejection);
  });
  return { calls, startups, agreements, rejections };
}

/** The record of an accepted request; `body` is what the batch was parsed from. */
export function acceptedRecord(
  req: Pick<IngestRequest, 'receivedMs' | 'userAgent'>,
  key: KeyFingerprint,
  bodyBytes: number,
  batch: readonly unknown[],
): BatchRecord {
  return {
    keySha256: key.sha256,
    keyPrefix: key.prefix,
    receivedMs: req.receivedMs,
    status: 202,
    bodyBytes,
    userAgent: req.userAgent ?? null,
    error: null,
    ...validateBatch(batch),
  };
}

/** Every SDK sends this (.NET adds a charset); anything else is worth saying on a refusal. */
const JSON_CONTENT_TYPE = /^application\/json\b/i;

function refuse(
  req: IngestRequest,
  status: number,
  error: string,
  key: KeyFingerprint | null,
): Verdict {
  const contentType = req.contentType ?? '';
  const hint = JSON_CONTENT_TYPE.test(contentType)
    ? undefined
    : `content-type was '${contentType.slice(0, 100) || 'missing'}': send the batch as application/json, as every MCPulse SDK does`;
  const sample =
    req.body === 'too-large'
      ? { item: '', truncated: true }
      : snapshotItem(req.body.toString('utf8'));
  return {
    kind: 'refused',
    answer: { status, headers: {}, body: { error } },
    record: {
      keySha256: key?.sha256 ?? null,
      keyPrefix: key?.prefix ?? null,
      receivedMs: req.receivedMs,
      status,
      bodyBytes: req.body === 'too-large' ? MAX_BODY_BYTES : req.body.length,
      userAgent: req.userAgent ?? null,
      error,
      ...(hint ? { hint } : {}),
      calls: [],
      startups: [],
      rejections: [{ index: null, reason: error, ...sample }],
    },
  };
}

/** Decides one request exactly as production would. Never throws. */
export function examine(req: IngestRequest, rateLimiter?: RateLimiter): Verdict {
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
  const record = acceptedRecord(req, key, req.body.length, batch);
  return {
    kind: 'accepted',
    record,
    key,
    body: req.body,
    items: batch.length,
    answer: {
      status: 202,
      headers: {
        'x-mcpulse-accepted': String(acceptedCount(record)),
        'x-mcpulse-rejected': String(record.rejections.length),
      },
    },
  };
}
