/**
 * What the proxy keeps on this machine beside the telemetry an SDK would send: every JSON-RPC
 * message it relayed (bodies redacted and capped before they leave the proxy, and redacted
 * again by the server before it stores them), what the client
 * and the server said about themselves at `initialize`, and the requests left unanswered when
 * the session ended cleanly.
 *
 * It travels on its own local route (`POST /v1/local/proxy`, the same `authorization: Bearer
 * <key>` as ingest) so `/v1/ingest` stays exactly what an SDK sends. The hosted API has no such
 * route: this never leaves the machine.
 */
import { z } from 'zod';

/** The local route the proxy posts content to. */
export const PROXY_CONTENT_PATH = '/v1/local/proxy';

/** Bodies over this many bytes (UTF-8) are stored truncated, with their original size. */
export const MESSAGE_BODY_CAP = 256 * 1024;

/** At most this many messages in one post; the proxy splits bigger backlogs. */
export const MAX_MESSAGES_PER_POST = 2_000;

/**
 * Keys whose string values are redacted by default, at any depth (matched case-insensitively,
 * as substrings: `set-cookie`, `x-api-key`, `client_secret` are covered). Values are also
 * redacted by format wherever they are: src/redact.
 */
export const DEFAULT_SECRET_KEYS = [
  'authorization',
  'password',
  'passwd',
  'token',
  'secret',
  'api_key',
  'apikey',
  'api-key',
  'cookie',
  'private_key',
  'credential',
] as const;

/**
 * What replaces a string value redacted for its key name (src/shared/redaction.ts has the
 * marker format; other rules name what they found, e.g. `[redacted: github-token]`).
 */
export const REDACTED = '[redacted: key-name]';

/** Who sent a message: the client (to the server) or the server (to the client). */
export const MESSAGE_DIRECTIONS = ['client', 'server'] as const;
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];

/** A JSON-RPC message's kind. */
export const MESSAGE_KINDS = ['request', 'result', 'error', 'notification'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** One relayed JSON-RPC message, as the proxy posts it. */
export const proxyMessageSchema = z.object({
  /** Order within the session, from 0, gap-free as relayed (a message lost to a ring gap skips one). */
  seq: z.number().int().min(0),
  direction: z.enum(MESSAGE_DIRECTIONS),
  /** When the proxy saw it, Unix epoch milliseconds (fractions allowed). */
  at_ms: z.number().min(0),
  /** The request's or notification's method; for a result or error, the method of the request it answers (null if unknown). */
  method: z.string().max(200).nullable(),
  /** The JSON-RPC id as JSON text (`1`, `"a"`), null for a notification. */
  rpc_id: z.string().max(200).nullable(),
  kind: z.enum(MESSAGE_KINDS),
  /** The message's JSON text after redaction; cut to MESSAGE_BODY_CAP bytes when `truncated`. */
  body: z.string(),
  truncated: z.boolean(),
  /** The message's original size in UTF-8 bytes, before redaction and truncation. */
  bytes: z.number().int().min(0),
  /**
   * For a `tools/call` request and its answer: the `started_at` of the `call` payload the proxy
   * sent to /v1/ingest for it, which is how a stored call finds its content.
   */
  call_started_at: z.string().max(64).nullable().optional(),
  /**
   * Set when the proxy could not keep the message (say, nested too deep to redact): why, with
   * `body` empty. The server stores no message for it and records it, with this reason, as a
   * refused item on the ingest log, so nothing the proxy relayed vanishes unsaid.
   */
  refused: z.string().max(1000).optional(),
});
export type ProxyMessage = z.infer<typeof proxyMessageSchema>;

/** One side's `initialize` facts. */
export const peerInfoSchema = z.object({
  name: z.string().max(200).nullable(),
  version: z.string().max(200).nullable(),
  /** The `capabilities` object as sent (JSON), null if none. */
  capabilities: z.record(z.unknown()).nullable(),
});

/** What the client and the server said at `initialize`. */
export const proxySessionInfoSchema = z.object({
  protocol_version: z.string().max(64).nullable(),
  client: peerInfoSchema,
  server: peerInfoSchema.extend({ instructions: z.string().nullable() }),
  /** How the proxy ran: `stdio` or `http`. */
  transport: z.enum(['stdio', 'http']),
});
export type ProxySessionInfo = z.infer<typeof proxySessionInfoSchema>;

/** A request that had no answer when the client closed cleanly and the server exited 0. */
export const unansweredRequestSchema = z.object({
  rpc_id: z.string().max(200),
  method: z.string().max(200),
  /** For `tools/call`, the tool asked for. */
  tool_name: z.string().max(200).nullable(),
  sent_at_ms: z.number().min(0),
});
export type UnansweredRequest = z.infer<typeof unansweredRequestSchema>;

/** One post to PROXY_CONTENT_PATH. Every part is optional; a post may carry any of them. */
export const proxyContentSchema = z.object({
  v: z.literal(1),
  session_id: z.string().min(1).max(128),
  session: proxySessionInfoSchema.optional(),
  messages: z.array(proxyMessageSchema).max(MAX_MESSAGES_PER_POST).optional(),
  unanswered: z.array(unansweredRequestSchema).max(10_000).optional(),
});
export type ProxyContent = z.infer<typeof proxyContentSchema>;

/** A stored message, as `GET /api/messages?session=ID` lists it. */
export interface MessageView {
  seq: number;
  direction: MessageDirection;
  at_ms: number;
  method: string | null;
  rpc_id: string | null;
  kind: MessageKind;
  body: string;
  truncated: boolean;
  bytes: number;
}

/** A proxied call's content, as `GET /api/calls/:id` carries it (`content: null` for SDK calls). */
export interface CallContent {
  /** The `arguments` of the request, as JSON text (null when absent). */
  arguments: string | null;
  /** The result's JSON text (null when the answer was an error or never came). */
  result: string | null;
  /** The error text: a JSON-RPC error's message, or the text parts of an `isError` result. */
  error: string | null;
  /** The request and answer messages' seq, to open them in the message log. */
  request_seq: number | null;
  answer_seq: number | null;
  truncated: boolean;
}

/** A group of a tool's failing calls that share one error text (`GET /api/tools/:name/errors`). */
export interface ErrorGroup {
  message: string;
  count: number;
  /** How many of them were the first call of the tool in their session. */
  first_calls: number;
  outcomes: Record<string, number>;
  first_at: string;
  last_at: string;
  example_call_id: number;
  example_session_id: string;
}
