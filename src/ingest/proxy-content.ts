/**
 * The proxy's local content route (`POST /v1/local/proxy`, src/shared/proxy-content.ts):
 * the same bearer key as ingest (only its fingerprint is stored), zod validation, then the
 * store. As at ingest, a refused post is recorded on the ingest log with its reason, and a
 * bad message is dropped on its own with a dotted-path reason — never the good ones beside it.
 * Every body, the session's `initialize` facts and every refused item's snapshot are redacted
 * (./redaction.ts) before anything is written: credentials never reach the disk (issue 40).
 */
import { z } from 'zod';
import {
  MAX_MESSAGES_PER_POST,
  MESSAGE_BODY_CAP,
  PROXY_CONTENT_PATH,
  proxyContentSchema,
  proxyMessageSchema,
  type ProxyMessage,
} from '../shared/proxy-content.js';
import { describeZodError } from '../shared/wire.js';
import type { BatchRecord, RejectedItem, Store } from '../store/index.js';
import type { LiveBus } from './bus.js';
import { storeFailure, type IngestAnswer, type IngestRequest } from './examine.js';
import { createFileLossCheck } from './file-loss.js';
import { bearerKey, fingerprintKey, type KeyFingerprint } from './key.js';
import { publishWritten } from './publish.js';
import { redactMessage, redactorFor, redactSessionInfo, redactSnapshot } from './redaction.js';
import { snapshotItem, wellFormed } from './validate-item.js';

/**
 * The largest post read: MAX_MESSAGES_PER_POST messages of a few KB each, or a few capped
 * 256 KB bodies. The proxy splits a bigger backlog into more posts.
 */
export const MAX_CONTENT_BODY_BYTES = 64 * 1024 * 1024;

/** The post with its messages left unchecked, so each message is judged on its own. */
const envelopeSchema = proxyContentSchema.extend({
  messages: z.array(z.unknown()).max(MAX_MESSAGES_PER_POST).optional(),
});

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A message checked on its own: the schema, then the body cap the proxy promises to keep. */
function checkMessage(
  item: unknown,
  index: number,
): { message: ProxyMessage } | { rejection: RejectedItem } {
  const parsed = proxyMessageSchema.safeParse(item);
  const reject = (reason: string) => ({
    rejection: { index, reason: `messages.${index}.${reason}`, ...snapshotItem(item) },
  });
  if (!parsed.success) return reject(describeZodError(parsed.error));
  const m = parsed.data;
  if (m.refused !== undefined) {
    // The proxy could not keep it (too deep to redact): recorded with its facts and reason.
    const { body: _body, refused, ...facts } = m;
    return {
      rejection: {
        index,
        reason: `messages.${index}: ${m.direction} ${m.kind} ${m.method ?? ''} #${m.seq} (${m.bytes} bytes) not stored: ${refused}`,
        ...snapshotItem(facts),
      },
    };
  }
  const size = Buffer.byteLength(m.body, 'utf8');
  if (size > MESSAGE_BODY_CAP)
    return reject(
      `body: ${size} bytes, over the ${MESSAGE_BODY_CAP}-byte cap: cut it and set truncated`,
    );
  // What SQLite will hold (no lone surrogates), so a retried post matches what is stored.
  return { message: { ...m, body: wellFormed(m.body) } };
}

/**
 * Builds the handler for content posts over one store. Never throws for bad input. With a
 * bus, what reaches the ingest log (a refused post, refused messages) is announced on it, as
 * ingest's refusals are, so the Ingest log page shows it live.
 */
export function createContentIngest(store: Store, bus?: LiveBus) {
  // As at ingest: nothing is acknowledged (or logged) into a database file lost while serving.
  const fileLost = createFileLossCheck(store);
  const redactor = redactorFor(store);
  async function refuse(
    req: IngestRequest,
    status: number,
    error: string,
    key: KeyFingerprint | null,
  ): Promise<IngestAnswer> {
    const message = `${PROXY_CONTENT_PATH}: ${error}`;
    const sample =
      req.body === 'too-large'
        ? { item: '', truncated: true }
        : await redactSnapshot(snapshotItem(req.body.toString('utf8')), redactor());
    const record: BatchRecord = {
      keySha256: key?.sha256 ?? null,
      keyPrefix: key?.prefix ?? null,
      receivedMs: req.receivedMs,
      status,
      bodyBytes: req.body === 'too-large' ? MAX_CONTENT_BODY_BYTES : req.body.length,
      userAgent: req.userAgent ?? null,
      error: message,
      calls: [],
      startups: [],
      rejections: [{ index: null, reason: message, ...sample }],
    };
    try {
      const written = store.writeBatch(record);
      if (bus) publishWritten(bus, record, written);
    } catch (failure) {
      return storeFailure(failure);
    }
    return { status, headers: {}, body: { error: message } };
  }

  return async function handle(req: IngestRequest): Promise<IngestAnswer> {
    const lost = fileLost();
    if (lost) return lost;
    const rawKey = bearerKey(req.authorization);
    if (rawKey === null)
      return refuse(
        req,
        401,
        'missing or empty bearer key: send "Authorization: Bearer <key>", the key the proxy sends telemetry with',
        null,
      );
    const key = fingerprintKey(rawKey);
    if (req.body === 'too-large')
      return refuse(
        req,
        413,
        `body over ${MAX_CONTENT_BODY_BYTES / 1024 / 1024} MiB: split it`,
        key,
      );
    let parsed: unknown;
    try {
      parsed = JSON.parse(utf8.decode(req.body));
    } catch (error) {
      const why =
        error instanceof SyntaxError ? `not valid JSON: ${error.message}` : 'not valid UTF-8';
      return refuse(req, 400, `body is ${why}`, key);
    }
    const envelope = envelopeSchema.safeParse(parsed);
    if (!envelope.success) return refuse(req, 400, describeZodError(envelope.error), key);
    const post = envelope.data;
    const messages: ProxyMessage[] = [];
    const rejections: RejectedItem[] = [];
    const rules = redactor();
    for (const [index, item] of (post.messages ?? []).entries()) {
      const verdict = checkMessage(item, index);
      if ('message' in verdict) messages.push(await redactMessage(verdict.message, rules));
      else {
        const { item: snapshot, truncated } = await redactSnapshot(verdict.rejection, rules);
        rejections.push({ ...verdict.rejection, item: snapshot, truncated });
      }
    }
    const session = post.session ? await redactSessionInfo(post.session, rules) : null;
    // Redacting awaited: the file may have been lost meanwhile (nothing is acknowledged into it).
    const lostSince = fileLost();
    if (lostSince) return lostSince;
    let result;
    const userAgent = req.userAgent ?? null;
    try {
      result = store.writeContent({
        keySha256: key.sha256,
        keyPrefix: key.prefix,
        receivedMs: req.receivedMs,
        sessionId: wellFormed(post.session_id),
        session,
        messages,
        unanswered: post.unanswered ?? [],
        rejections,
        bodyBytes: req.body.length,
        userAgent,
      });
    } catch (error) {
      return storeFailure(error);
    }
    if (bus && result.batchId !== null) {
      // The log row counts the messages stored; the live event says the same.
      const record: BatchRecord = {
        keySha256: key.sha256,
        keyPrefix: key.prefix,
        receivedMs: req.receivedMs,
        status: 202,
        bodyBytes: req.body.length,
        userAgent,
        error: `proxy content: ${rejections.length} message(s) refused`,
        calls: [],
        startups: [],
        rejections,
      };
      publishWritten(
        bus,
        record,
        {
          batchId: result.batchId,
          projectId: result.projectId,
          callIds: [],
          startupIds: [],
          agreementIds: [],
          rejectionIds: result.rejectionIds,
        },
        true,
        messages.length,
      );
    }
    return {
      status: 202,
      headers: {
        'x-mcpulse-accepted': String(messages.length),
        'x-mcpulse-rejected': String(rejections.length),
        'x-mcpulse-duplicates': String(result.duplicates),
      },
    };
  };
}

export type ContentIngest = ReturnType<typeof createContentIngest>;
