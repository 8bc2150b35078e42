import type { AgreementPayload, CallPayload, StartupPayload } from '../shared/wire.js';

/** A call that passed validation, ready to store. */
export interface AcceptedCall {
  payload: CallPayload;
  startedMs: number;
  /** Fields outside the contract, kept so an export replays exactly what was sent. */
  extra: Record<string, unknown> | null;
  /** Optional fields the payload left out ({@link OMITTED_CALL_FIELDS}); absent = none. */
  omitted?: number;
}

/**
 * The optional call fields an SDK may leave out (Go's `omitempty`), as bits of the stored
 * `omitted` mask — so an export writes back exactly the fields that were sent.
 */
export const OMITTED_CALL_FIELDS = { duration_ms: 1, response_bytes: 2, is_empty: 4 } as const;

/** The startup's `tools` left out (Go, before the first `tools/list` answer). */
export const OMITTED_STARTUP_TOOLS = 1;

/** A startup that passed validation. */
export interface AcceptedStartup {
  payload: StartupPayload;
  extra: Record<string, unknown> | null;
  /** Per-tool unknown fields (e.g. PHP's `schema_hash`), aligned with `payload.tools`. */
  toolExtras: (Record<string, unknown> | null)[];
  /** {@link OMITTED_STARTUP_TOOLS} when the payload had no `tools`; absent = 0. */
  omitted?: number;
}

/** An agreement verdict that passed validation. */
export interface AcceptedAgreement {
  payload: AgreementPayload;
  /** `checked_at` as UTC epoch milliseconds. */
  checkedMs: number;
  extra: Record<string, unknown> | null;
}

/** An item dropped from the batch, with production's reason. */
export interface RejectedItem {
  /** Position in the batch; `null` when the whole request was refused. */
  index: number | null;
  reason: string;
  item: string;
  truncated: boolean;
}

/** Everything one request to `/v1/ingest` produced, written in one transaction. */
export interface BatchRecord {
  /** SHA-256 hex of the bearer key, or `null` when none was sent. */
  keySha256: string | null;
  keyPrefix: string | null;
  receivedMs: number;
  status: number;
  bodyBytes: number;
  userAgent: string | null;
  error: string | null;
  /** A request that missed `/v1/ingest` (src/ingest/misdirected.ts): its method and path. */
  method?: string;
  path?: string;
  /** One sentence saying what to change (a wrong path, a content type); absent = none. */
  hint?: string;
  calls: AcceptedCall[];
  startups: AcceptedStartup[];
  /** Agreement verdicts (PHP 0.1.6+); absent = none. */
  agreements?: AcceptedAgreement[];
  rejections: RejectedItem[];
}

/** What the store wrote, for the live stream. */
export interface BatchWriteResult {
  batchId: number;
  projectId: number | null;
  callIds: number[];
  startupIds: number[];
  agreementIds: number[];
  rejectionIds: number[];
}

/** Payloads stored from a request: calls, startups and agreement verdicts. */
export const acceptedCount = (r: BatchRecord): number =>
  r.calls.length + r.startups.length + (r.agreements?.length ?? 0);
