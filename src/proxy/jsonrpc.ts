/**
 * The JSON-RPC 2.0 shapes the proxy reads, and a parser that never throws: whatever is not a
 * JSON-RPC message is simply not seen (the relay has forwarded it untouched already).
 */

/** A JSON-RPC id: the spec allows strings and numbers (and `null` on some error responses). */
export type RpcId = string | number;

/** A message as observed, sorted by kind. */
export type RpcMessage =
  | { kind: 'request'; id: RpcId; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'result'; id: RpcId; result: unknown }
  | { kind: 'error'; id: RpcId | null; code: number | null; error: unknown };

/** The map key of an id: `1` and `"1"` are different ids. */
export function idKey(id: RpcId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

function isId(value: unknown): value is RpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** One decoded value as a message, or `null` when it is not one. */
export function toMessage(value: unknown): RpcMessage | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const m = value as Record<string, unknown>;
  if (typeof m.method === 'string') {
    if (isId(m.id)) return { kind: 'request', id: m.id, method: m.method, params: m.params };
    if (m.id === undefined) return { kind: 'notification', method: m.method, params: m.params };
    return null;
  }
  if ('result' in m && isId(m.id)) return { kind: 'result', id: m.id, result: m.result };
  if (m.error !== undefined && m.error !== null && (isId(m.id) || m.id === null)) {
    const code = (m.error as { code?: unknown }).code;
    return {
      kind: 'error',
      id: m.id as RpcId | null,
      code: typeof code === 'number' ? code : null,
      error: m.error,
    };
  }
  return null;
}

/** One message of a JSON text, its parsed value, and its own JSON text. */
export interface ParsedEntry {
  message: RpcMessage;
  value: unknown;
  /** The message's text: the whole text for a lone message, its own JSON for a batch member. */
  text: string;
}

/**
 * The messages in one JSON text with their values: one message, or each member of a batch.
 * Malformed JSON, or JSON that is not JSON-RPC, gives an empty list — never an exception.
 */
export function parseEntries(text: string): ParsedEntry[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (Array.isArray(value)) {
    const out: ParsedEntry[] = [];
    for (const item of value) {
      const m = toMessage(item);
      if (m) out.push({ message: m, value: item, text: JSON.stringify(item) });
    }
    return out;
  }
  const m = toMessage(value);
  return m ? [{ message: m, value, text }] : [];
}

/** The messages in one JSON text (see {@link parseEntries}). */
export function parseMessages(text: string): RpcMessage[] {
  return parseEntries(text).map((e) => e.message);
}
