/**
 * The MCPulse wire contract (shared/wire-format.md §1–2), as the hosted API validates it.
 *
 * The hosted API is built on zod 3, and its error strings (`tools.0.name: Expected string,
 * received number`) are zod's own, so validating with the same library is the shortest way to
 * accept and reject exactly what production does — with the same words.
 */
import { z } from 'zod';
import { datetimeRegex } from 'zod/v3';
import { OUTCOMES } from './outcomes.js';

/** Hosted field caps (wire-format §1). */
export const LIMITS = {
  maxBatch: 500,
  sessionId: 128,
  toolName: 200,
  clientName: 128,
  durationMs: 86_400_000,
  bytes: 2_147_483_647,
  toolsPerStartup: 500,
  /** An agreement's field name: the SDKs do not cap it; the tool-name cap keeps rows small. */
  agreementField: 200,
  /** An agreement's window: a positive int32, the widest integer every SDK writes. */
  windowMs: 2_147_483_647,
} as const;

/**
 * zod's own ISO 8601 check (`z.string().datetime({ offset: true })`), with the pattern built
 * once: zod rebuilds it on every call, a measurable share of ingest. Same pattern, same words.
 */
export const ISO_DATETIME = datetimeRegex({ offset: true, local: false, precision: null });
const isoDatetime = z.string().regex(ISO_DATETIME, 'Invalid datetime');

const argsHash = z.string().regex(/^[0-9a-f]{4,64}$/, 'Expected 4–64 lowercase hex characters');
const byteCount = z.number().int().min(0).max(LIMITS.bytes);

/** One `tools/call`, with Go's omitted zero/false fields filled in. */
export const callSchema = z.object({
  v: z.literal(1),
  type: z.literal('call'),
  session_id: z.string().min(1).max(LIMITS.sessionId),
  client_name: z.string().max(LIMITS.clientName),
  tool_name: z.string().min(1).max(LIMITS.toolName),
  started_at: isoDatetime,
  duration_ms: z.number().int().min(0).max(LIMITS.durationMs).default(0),
  outcome: z.enum(OUTCOMES),
  response_bytes: byteCount.default(0),
  is_empty: z.boolean().default(false),
  args_hash: argsHash,
});

/** The tool list a server registered, with each schema's size. */
export const startupSchema = z.object({
  v: z.literal(1),
  type: z.literal('startup'),
  session_id: z.string().min(1).max(LIMITS.sessionId),
  client_name: z.string().max(LIMITS.clientName),
  tools: z
    .array(z.object({ name: z.string().min(1).max(LIMITS.toolName), schema_bytes: byteCount }))
    .max(LIMITS.toolsPerStartup)
    .default([]),
});

/**
 * A cross-tool agreement verdict (PHP 0.1.6 `Agree.php`, a port of the TypeScript SDK's
 * `agree.ts`): two tools returned the same declared field inside the window, and the SDK says
 * whether the values agreed. Only the verdict leaves the process — no value, no hash of one.
 * The SDK compares only different tools; `tool_b ≠ tool_a` is checked in validate-item.ts
 * (a refinement here would stop the schema taking part in the discriminated union).
 */
export const agreementSchema = z.object({
  v: z.literal(1),
  type: z.literal('agreement'),
  session_id: z.string().min(1).max(LIMITS.sessionId),
  field: z.string().min(1).max(LIMITS.agreementField),
  tool_a: z.string().min(1).max(LIMITS.toolName),
  tool_b: z.string().min(1).max(LIMITS.toolName),
  agreed: z.boolean(),
  checked_at: isoDatetime,
  // The window the verdict was reached under (per field since PHP 0.1.6); absent = not said.
  window_ms: z.number().int().min(1).max(LIMITS.windowMs).optional(),
});

/** Any payload; an unknown `type` is an invalid item, never a crash. */
export const payloadSchema = z.discriminatedUnion('type', [
  callSchema,
  startupSchema,
  agreementSchema,
]);

export type CallPayload = z.infer<typeof callSchema>;
export type StartupPayload = z.infer<typeof startupSchema>;
export type AgreementPayload = z.infer<typeof agreementSchema>;
export type Payload = z.infer<typeof payloadSchema>;
export { OUTCOMES, type Outcome } from './outcomes.js';

/** Fields named by the contract; anything else is kept aside as `extra` so exports replay it. */
export const KNOWN_CALL_FIELDS = new Set(Object.keys(callSchema.shape));
export const KNOWN_STARTUP_FIELDS = new Set(Object.keys(startupSchema.shape));
export const KNOWN_AGREEMENT_FIELDS = new Set(Object.keys(agreementSchema.shape));

/** Formats a zod error the way the hosted API does: `dotted.path: message` for the first issue. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}
