/**
 * Turning one relayed JSON-RPC message into what the proxy keeps of it (src/shared/proxy-content.ts):
 * its body with secret-looking values redacted, cut to MESSAGE_BODY_CAP with the original size.
 * A message nothing was redacted from keeps its exact relayed text, so what is stored equals
 * the bytes that went across.
 */
import {
  DEFAULT_SECRET_KEYS,
  MESSAGE_BODY_CAP,
  REDACTED,
  type MessageDirection,
  type MessageKind,
  type ProxyMessage,
} from '../shared/proxy-content.js';

/**
 * Keys the protocol itself uses that contain a secret-looking word but never hold a secret:
 * MCP's `_meta.progressToken` (a counter or id the client picks), redacting which would only
 * hide which progress notification belongs to which request.
 */
const PROTOCOL_KEYS = new Set(['progresstoken']);

/** How secrets are found: key names, lower-cased, matched as substrings. */
export class Redactor {
  private readonly keys: string[];
  private readonly quick: RegExp;

  /** `extra`: the `--redact-keys` names, added to DEFAULT_SECRET_KEYS. */
  constructor(extra: readonly string[] = []) {
    const all = new Set([...DEFAULT_SECRET_KEYS, ...extra.map((k) => k.trim().toLowerCase())]);
    all.delete('');
    this.keys = [...all];
    const escaped = this.keys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.quick = new RegExp(escaped.join('|'), 'i');
  }

  /** Whether `text` may hold a secret key at all (most messages do not: no walk, no copy). */
  mayHold(text: string): boolean {
    return this.quick.test(text);
  }

  /** Whether a key's value is redacted. */
  isSecret(key: string): boolean {
    const lower = key.toLowerCase();
    if (PROTOCOL_KEYS.has(lower)) return false;
    return this.keys.some((k) => lower.includes(k));
  }

  /**
   * `value` with the string values of secret keys replaced by REDACTED, at any depth, and
   * whether anything was. Only strings are secrets: a number (`max_tokens: 100`) is left alone,
   * and an object under a secret-looking key is walked into rather than hidden (a JSON Schema's
   * `properties.maxTokens` describes a field; it holds no value).
   */
  redact(value: unknown): { value: unknown; changed: boolean } {
    let changed = false;
    const walk = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(walk);
      if (v === null || typeof v !== 'object') return v;
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) {
        if (typeof inner === 'string' && this.isSecret(k)) {
          out[k] = REDACTED;
          changed = true;
        } else out[k] = walk(inner);
      }
      return out;
    };
    const result = walk(value);
    return { value: result, changed };
  }
}

/** `text` cut to at most `cap` UTF-8 bytes, never inside a character. */
export function cutUtf8(text: string, cap: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= cap) return text;
  let end = cap;
  // Back off continuation bytes (10xxxxxx) so the cut lands on a character's first byte.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** What the observer knows of a message besides its text. */
export interface MessageFacts {
  direction: MessageDirection;
  at: number;
  kind: MessageKind;
  method: string | null;
  /** The JSON-RPC id as JSON text, null for a notification. */
  rpcId: string | null;
  callStartedAt: string | null;
}

/**
 * The stored form of one message. `text` is its exact relayed JSON text (a line, an HTTP body,
 * an SSE event's data); `value` its parsed value, used only when something must be redacted.
 */
export function contentMessage(
  seq: number,
  facts: MessageFacts,
  text: string,
  value: unknown,
  redactor: Redactor,
  cap = MESSAGE_BODY_CAP,
): ProxyMessage {
  const bytes = Buffer.byteLength(text, 'utf8');
  let body = text;
  if (redactor.mayHold(text)) {
    const redacted = redactor.redact(value);
    if (redacted.changed) body = JSON.stringify(redacted.value);
  }
  const truncated = Buffer.byteLength(body, 'utf8') > cap;
  if (truncated) body = cutUtf8(body, cap);
  return {
    seq,
    direction: facts.direction,
    at_ms: facts.at,
    method: facts.method?.slice(0, 200) ?? null,
    rpc_id: facts.rpcId?.slice(0, 200) ?? null,
    kind: facts.kind,
    body,
    truncated,
    bytes,
    call_started_at: facts.callStartedAt,
  };
}
