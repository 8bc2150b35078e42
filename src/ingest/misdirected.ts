/**
 * Requests that were meant as an ingest and missed: a POST to another path (an `endpoint`
 * option that already ends in `/v1/ingest`, so the SDK posts to `/v1/ingest/v1/ingest`;
 * `/ingest`; a trailing slash; another product's `/v1/events`) or another method on
 * `/v1/ingest`. The answer is the hosted API's (404 for a path it has no route for, 405 for
 * the wrong method); the ingest log is ours: each is kept with its method, path, user agent
 * and one sentence saying what to change.
 *
 * The body is never read, and identical repeats are counted on one row (./refusal-log.ts).
 */
import type { BatchRecord } from '../store/batch-record.js';
import type { IngestAnswer } from './examine.js';

/** The one route an SDK posts to. */
export const INGEST_PATH = '/v1/ingest';

/** A request that was not an ingest, as the server saw it. */
export interface MisdirectedRequest {
  method: string;
  /** The path without the query string, as received. */
  path: string;
  userAgent: string | undefined;
  /** From `content-length`; the body itself is not read. */
  bodyBytes: number;
  receivedMs: number;
}

/** What the hosted API answers, and what to tell the author. */
export interface MisdirectedAdvice {
  status: number;
  /** The answer's `{"error"}` (what an SDK would see, if it read bodies; none do). */
  error: string;
  /** One sentence saying what to change. */
  hint: string;
}

/**
 * Says what a request that missed `/v1/ingest` should have been. `baseUrl` is what to paste
 * into the SDK's endpoint option (e.g. `http://localhost:7857`): every SDK adds `/v1/ingest`.
 */
export function adviseMisdirected(
  method: string,
  path: string,
  baseUrl: string,
): MisdirectedAdvice {
  if (path === INGEST_PATH) {
    return {
      status: 405,
      error: `use POST ${INGEST_PATH}`,
      hint: `${method} is not an ingest: SDKs POST their batches to ${INGEST_PATH} — if this was an SDK, its endpoint option should be the base URL ${baseUrl}`,
    };
  }
  const error = `not found: ${method} ${path.slice(0, 200)}`;
  const shown = path.length > 120 ? `${path.slice(0, 120)}…` : path;
  let hint: string;
  if (path.endsWith(INGEST_PATH) || path.includes(`${INGEST_PATH}/`)) {
    hint =
      path === `${INGEST_PATH}/`
        ? `the path ends in a slash (${shown}): give the endpoint option the base URL ${baseUrl}, without a path or trailing slash — the SDK adds ${INGEST_PATH} itself`
        : `your endpoint option ends in ${INGEST_PATH} (the SDK posted to ${shown}): give the base URL ${baseUrl} — the SDK adds ${INGEST_PATH} itself`;
  } else if (path === '/ingest' || path.endsWith('/ingest')) {
    hint = `the SDK posted to ${shown}, and the route is ${INGEST_PATH}: give the endpoint option the base URL ${baseUrl} — the SDK adds ${INGEST_PATH} itself`;
  } else {
    hint = `nothing here takes ${method} ${shown}: MCPulse SDKs post to ${INGEST_PATH} — give the endpoint option the base URL ${baseUrl} (if this is another product's SDK, it is pointed at the wrong port)`;
  }
  return { status: 404, error, hint };
}

/**
 * The hosted API's answer to a misdirected request, and its ingest-log row. The row belongs
 * to no project: a key that never reached the ingest route is not a project.
 */
export function misdirectedVerdict(
  req: MisdirectedRequest,
  baseUrl: string,
): { answer: IngestAnswer; record: BatchRecord; signature: string } {
  const advice = adviseMisdirected(req.method, req.path, baseUrl);
  return {
    answer: {
      status: advice.status,
      headers: advice.status === 405 ? { allow: 'POST' } : {},
      body: { error: advice.error },
    },
    record: {
      keySha256: null,
      keyPrefix: null,
      receivedMs: req.receivedMs,
      status: advice.status,
      bodyBytes: req.bodyBytes,
      userAgent: req.userAgent ?? null,
      error: advice.error,
      method: req.method,
      path: req.path.slice(0, 2048),
      hint: advice.hint,
      calls: [],
      startups: [],
      rejections: [],
    },
    signature: `${req.method} ${req.path}\n${advice.status}\n${req.userAgent ?? ''}`,
  };
}
