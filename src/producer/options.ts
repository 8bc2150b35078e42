/**
 * Producer options and the SDK-wide defaults (wire-format §1): flush at 30 payloads or every
 * 5 s, keep at most 1000 (oldest dropped), give up on a request after 10 s.
 */
import type { Payload } from './types.js';

/** What a finished send reports, for callers that want to observe delivery (the demo does). */
export interface SendReport {
  payloads: number;
  /** How many of them were `call` payloads (the rest are startups), for callers that report drops by kind. */
  calls: number;
  /** The HTTP status, or `'error'` for a network failure or timeout. */
  status: number | 'error';
  ok: boolean;
}

/** Options for {@link createProducer}. */
export interface ProducerOptions {
  /** Base URL of the receiver, e.g. `http://localhost:7857`; `/v1/ingest` is appended. */
  endpoint: string;
  /** Bearer key. Empty (or missing) turns the producer off, as in every SDK. */
  key: string;
  /** Flush when this many payloads are buffered. Default 30. */
  flushAt?: number;
  /** Flush at least this often while something is buffered. Default 5000. */
  flushEveryMs?: number;
  /** Keep at most this many payloads; the oldest is dropped past it. Default 1000. */
  maxBuffered?: number;
  /** Abort a request after this long. Default 10000. */
  timeoutMs?: number;
  /** The `fetch` to send with (tests inject one). Default: the global fetch. */
  fetch?: typeof fetch;
  /** Called after every send attempt. Must not throw; if it does, the error is swallowed. */
  onSend?: (report: SendReport) => void;
  /** Called for every payload as it is buffered (the demo keeps a local tally). */
  onPayload?: (payload: Payload) => void;
  /** `user-agent` header. */
  userAgent?: string;
  /**
   * A name for this session, sent as `session_label` on every startup (an extra field: unknown
   * fields are allowed on startups, and the dashboard titles and searches sessions by it).
   * Trimmed, at most 120 characters; empty = none.
   */
  sessionLabel?: string;
}

/** Options with every default filled in; `enabled` is false when there is nothing to send to. */
export interface ResolvedOptions extends Required<
  Omit<ProducerOptions, 'onSend' | 'onPayload' | 'sessionLabel'>
> {
  enabled: boolean;
  /** `undefined` = send no label. */
  sessionLabel: string | undefined;
  onSend: ((report: SendReport) => void) | undefined;
  onPayload: ((payload: Payload) => void) | undefined;
}

export const DEFAULTS = {
  flushAt: 30,
  flushEveryMs: 5000,
  maxBuffered: 1000,
  timeoutMs: 10_000,
} as const;

/** The hosted API refuses a request with more than this many payloads (413). */
export const MAX_PER_REQUEST = 500;

const positive = (value: number | undefined, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;

/**
 * Fills in defaults. Never throws: nonsense values fall back to the defaults, and a missing
 * endpoint, key or fetch leaves the producer switched off rather than failing the server.
 */
export function resolveOptions(options: Partial<ProducerOptions> | undefined): ResolvedOptions {
  const o = options ?? {};
  const endpoint = typeof o.endpoint === 'string' ? o.endpoint.trim().replace(/\/+$/, '') : '';
  const key = typeof o.key === 'string' ? o.key.trim() : '';
  const doFetch = typeof o.fetch === 'function' ? o.fetch : globalThis.fetch;
  return {
    endpoint,
    key,
    flushAt: Math.min(positive(o.flushAt, DEFAULTS.flushAt), MAX_PER_REQUEST),
    flushEveryMs: positive(o.flushEveryMs, DEFAULTS.flushEveryMs),
    maxBuffered: positive(o.maxBuffered, DEFAULTS.maxBuffered),
    timeoutMs: positive(o.timeoutMs, DEFAULTS.timeoutMs),
    fetch: doFetch,
    userAgent:
      typeof o.userAgent === 'string' && o.userAgent ? o.userAgent : 'mcpulse-devtools-producer/1',
    enabled: endpoint !== '' && key !== '' && typeof doFetch === 'function',
    sessionLabel:
      typeof o.sessionLabel === 'string' && o.sessionLabel.trim()
        ? o.sessionLabel.trim().slice(0, 120)
        : undefined,
    onSend: typeof o.onSend === 'function' ? o.onSend : undefined,
    onPayload: typeof o.onPayload === 'function' ? o.onPayload : undefined,
  };
}
