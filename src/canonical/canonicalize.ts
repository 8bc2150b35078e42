/**
 * RFC 8785 (JSON Canonicalization Scheme) for the values `JSON.parse` produces.
 *
 * The whole scheme, as MCPulse uses it (wire-format §3):
 * - objects: members sorted by their keys' UTF-16 code units, at every depth;
 * - arrays: order kept;
 * - numbers: ECMAScript `Number::toString` (`1.0`→`1`, `-0`→`0`, `1e21`→`1e+21`); NaN and
 *   ±Infinity cannot be written;
 * - strings: `\b \t \n \f \r \" \\`, other controls as lowercase `\u00xx`, nothing else
 *   escaped; a lone surrogate is written as a lowercase `\udxxx` escape — what the TypeScript
 *   SDK (@mcpulse/sdk 0.1.6, `JSON.stringify`) sends and its own test pins. Strict RFC 8785
 *   (I-JSON) would refuse it, but the hashes in MCPulse's history are the TypeScript SDK's;
 * - no whitespace anywhere.
 *
 * `writeCanonical` is that list, in code. `canonicalize` is the same writer, except that it
 * hands arrays and objects of {@link NATIVE_FROM} or more members to a native route to the same
 * bytes (`./sorted-copy.js`). For a handful of members, building the string here is cheapest;
 * for many, concatenating thousands of pieces leaves a deep rope that hashing must flatten,
 * while V8's `JSON.stringify` writes one flat string, fast enough that sorting a copy first
 * pays for itself. Tests hold the two writers to the same output.
 */
import {
  checkNumber,
  checkPlainObject,
  notJson,
  sortKeys,
  UnrepresentableError,
} from './json-values.js';
import { inCanonicalOrder, NEEDS_WRITER } from './sorted-copy.js';

export { UnrepresentableError } from './json-values.js';

/** From this many items (or members), a container is written by the native route. */
const NATIVE_FROM = 8;

/**
 * The RFC 8785 canonical form of `value`.
 *
 * Accepts the JSON data model: `null`, booleans, finite numbers, well-formed strings, arrays,
 * and plain objects (prototype `Object.prototype` or `null`; own enumerable string keys).
 *
 * @throws {UnrepresentableError} for anything else: `undefined`, functions, symbols, bigints,
 *   NaN/±Infinity, holes in arrays, class instances (`Date`, `Map`, …),
 *   cycles, or nesting deeper than the JavaScript stack.
 */
export function canonicalize(value: unknown): string {
  try {
    return write(value, true);
  } catch (error) {
    // A cycle or an absurdly deep value exhausts the stack; both mean "cannot be hashed".
    if (error instanceof RangeError) {
      throw new UnrepresentableError('nesting too deep (or a cycle) to canonicalize');
    }
    throw error;
  }
}

/**
 * The reference writer: RFC 8785 written out directly, one rule per branch. Same output and
 * same refusals as {@link canonicalize}.
 */
export function writeCanonical(value: unknown): string {
  return write(value, false);
}

function write(value: unknown, fast: boolean): string {
  switch (typeof value) {
    case 'string':
      return serializeString(value);
    case 'number':
      return serializeNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        return fast && value.length >= NATIVE_FROM ? writeNative(value) : writeArray(value, fast);
      }
      return writeObject(value as Record<string, unknown>, fast);
    default:
      throw notJson(value);
  }
}

function writeArray(items: readonly unknown[], fast: boolean): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) out += (i > 0 ? ',' : '') + write(items[i], fast);
  return out + ']';
}

function writeObject(object: Record<string, unknown>, fast: boolean): string {
  checkPlainObject(object);
  const keys = Object.keys(object);
  if (fast && keys.length >= NATIVE_FROM) return writeNative(object);
  sortKeys(keys);
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    out += (i > 0 ? ',' : '') + serializeString(key) + ':' + write(object[key], fast);
  }
  return out + '}';
}

/**
 * The native route: the value with every object's keys in sorted order, written by
 * `JSON.stringify` — exact, because on finite numbers and well-formed strings it writes what
 * RFC 8785 asks (and a lone surrogate as the `\udxxx` escape the TypeScript SDK sends), and it
 * writes an ordinary object's keys in insertion order. What would break that (array-index keys,
 * `__proto__`) goes back to the reference writer.
 */
function writeNative(value: object): string {
  try {
    return JSON.stringify(inCanonicalOrder(value));
  } catch (error) {
    if (error !== NEEDS_WRITER) throw error;
  }
  return write(value, false);
}

/**
 * A finite number as ECMAScript `Number::toString` writes it (RFC 8785 §3.2.2.3).
 * @throws {UnrepresentableError} for NaN and ±Infinity.
 */
export function serializeNumber(value: number): string {
  checkNumber(value);
  // String(x) is Number::toString itself (-0 included), and V8 caches recent results.
  return String(value);
}

/**
 * A string as RFC 8785 §3.2.2.2 writes it, quotes included; a lone surrogate as a lowercase
 * `\udxxx` escape, as the TypeScript SDK writes it.
 */
export function serializeString(value: string): string {
  // One pass decides: most strings need no escape at all (non-ASCII included); the rest are
  // what ES2019's well-formed JSON.stringify writes — exactly the RFC 8785 escapes, lowercase
  // hex, surrogate pairs as themselves and `\udxxx` for a lone surrogate.
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) {
      return JSON.stringify(value);
    }
  }
  return '"' + value + '"';
}
