/**
 * `args_hash` (wire-format §3): the first 12 lowercase hex digits of the SHA-256 of the UTF-8
 * canonical form. The hasher is injectable so one definition serves the browser (pure-TS
 * SHA-256, the default here) and Node (node:crypto, see `./node.js`).
 */
import { canonicalize, UnrepresentableError } from './canonicalize.js';
import { sha256Hex } from './sha256.js';

/** Lowercase hex SHA-256 of a text's UTF-8 bytes. */
export type Hasher = (text: string) => string;

/** How many hex digits of the SHA-256 an `args_hash` keeps. */
export const ARGS_HASH_LENGTH = 12;

/** What SDKs send when the arguments could not be hashed. */
export const UNHASHABLE = '000000000000';

/** The hash of absent arguments, which hash as `{}`. */
export const EMPTY_ARGS_HASH = '44136fa355b3';

/** The hash TS sends for JSON `null` arguments (every other SDK sends {@link EMPTY_ARGS_HASH}). */
export const NULL_ARGS_HASH = '74234e98afe7';

/** The `args_hash` of an already-canonical (or any) text. */
export function hashText(text: string, hasher: Hasher = sha256Hex): string {
  return hasher(text).slice(0, ARGS_HASH_LENGTH);
}

/**
 * The `args_hash` of a tool call's arguments, as the TypeScript SDK computes it: `undefined`
 * (absent) hashes as `{}`, `null` as `null`, and anything RFC 8785 cannot write as
 * {@link UNHASHABLE}.
 */
export function argsHash(args: unknown, hasher: Hasher = sha256Hex): string {
  const canonical = canonicalOrNull(args === undefined ? {} : args);
  return canonical === null ? UNHASHABLE : hashText(canonical, hasher);
}

/** The canonical form, or `null` when the value cannot be canonicalized. */
export function canonicalOrNull(value: unknown): string | null {
  try {
    return canonicalize(value);
  } catch (error) {
    if (error instanceof UnrepresentableError) return null;
    throw error;
  }
}

/** Whether `value` looks like an `args_hash` as the hosted API accepts it (4–64 lowercase hex). */
export function isArgsHash(value: string): boolean {
  return /^[0-9a-f]{4,64}$/.test(value);
}

/**
 * Whether a hash some SDK sent agrees with one computed here. SDKs may send anywhere from 4 to
 * 64 hex digits, so the shorter of the two decides.
 */
export function sameHash(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length);
  return n >= 4 && a.slice(0, n) === b.slice(0, n);
}

/**
 * A hasher that remembers what it hashed: one input's renderings are mostly the same text
 * (every language that agrees with the canonical form), so each is hashed once.
 */
export function memoizeHasher(hasher: Hasher): Hasher {
  const seen = new Map<string, string>();
  return (text) => {
    let hex = seen.get(text);
    if (hex === undefined) {
      hex = hasher(text);
      seen.set(text, hex);
    }
    return hex;
  };
}
