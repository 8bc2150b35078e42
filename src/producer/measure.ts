/**
 * What the producer measures about a call — sizes, emptiness, the arguments' hash — and
 * nothing else: the arguments and the result are looked at once, here, and never kept.
 */
import { randomBytes } from 'node:crypto';
import { argsHash as canonicalArgsHash, UNHASHABLE } from '../canonical/node.js';
import { stringifyJson } from '../shared/deep-json.js';

/** `s_` + 12 lowercase hex from the CSPRNG: one per producer (per process, endpoint and key). */
export function newSessionId(): string {
  return `s_${randomBytes(6).toString('hex')}`;
}

/**
 * `args_hash` (wire-format §3) through the project's canonical engine, as the TypeScript SDK
 * computes it (absent → `{}`, `null` → `null`); `000000000000` when it cannot be hashed.
 */
export function hashArguments(args: unknown): string {
  try {
    return canonicalArgsHash(args);
  } catch {
    return UNHASHABLE;
  }
}

/** UTF-16 code units of the result's compact JSON; 0 when it cannot be serialised. */
export function responseBytes(result: unknown): number {
  try {
    // Any depth: a 10,000-deep answer measured 0 with JSON.stringify (it overflowed).
    return result === undefined ? 0 : stringifyJson(result).length;
  } catch {
    return 0;
  }
}

/** Empty array, empty object, blank string, or nothing. `0` and `false` are answers. */
function hollow(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/**
 * `is_empty` for an `ok` call (wire-format §2): the structured content, when a tool gives one,
 * decides; otherwise no content parts, or exactly one text part that is blank or parses to an
 * empty array/object/string. Never throws.
 */
export function isEmptyResult(result: unknown): boolean {
  try {
    if (result === null || result === undefined) return true;
    const r = result as { content?: unknown; structuredContent?: unknown };
    if (r.structuredContent !== undefined) return hollow(r.structuredContent);
    if (!Array.isArray(r.content)) return hollow(result);
    if (r.content.length === 0) return true;
    if (r.content.length > 1) return false;
    const part = r.content[0] as { type?: unknown; text?: unknown } | null;
    if (part?.type !== 'text' || typeof part.text !== 'string') return false;
    const text = part.text.trim();
    if (text === '') return true;
    try {
      return hollow(JSON.parse(text));
    } catch {
      // Prose is an answer.
      return false;
    }
  } catch {
    return false;
  }
}
