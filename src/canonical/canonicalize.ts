/**
 * RFC 8785 (JSON Canonicalization Scheme) for the values `JSON.parse` produces.
 *
 * The whole scheme, as MCPulse uses it (wire-format §3):
 * - objects: members sorted by their keys' UTF-16 code units, at every depth;
 * - arrays: order kept;
 * - numbers: ECMAScript `Number::toString` (`1.0`→`1`, `-0`→`0`, `1e21`→`1e+21`); NaN and
 *   ±Infinity cannot be written;
 * - strings: `\b \t \n \f \r \" \\`, other controls as lowercase `\u00xx`, nothing else
 *   escaped; lone surrogates cannot be written (RFC 8785 requires I-JSON, which forbids them);
 * - no whitespace anywhere.
 *
 * The reference writer below is that list, in code. `canonicalize` normally takes a faster
 * route to the same bytes (`./sorted-copy.js`) and comes back here when that route cannot
 * promise them; tests hold the two to the same output.
 */
import {
  checkNumber,
  checkPlainObject,
  checkString,
  notJson,
  sortKeys,
  UnrepresentableError,
} from './json-values.js';
import { inCanonicalOrder, NEEDS_WRITER } from './sorted-copy.js';

export { UnrepresentableError } from './json-values.js';

/**
 * The RFC 8785 canonical form of `value`.
 *
 * Accepts the JSON data model: `null`, booleans, finite numbers, well-formed strings, arrays,
 * and plain objects (prototype `Object.prototype` or `null`; own enumerable string keys).
 *
 * @throws {UnrepresentableError} for anything else: `undefined`, functions, symbols, bigints,
 *   NaN/±Infinity, lone surrogates, holes in arrays, class instances (`Date`, `Map`, …),
 *   cycles, or nesting deeper than the JavaScript stack.
 */
export function canonicalize(value: unknown): string {
  try {
    try {
      const text = JSON.stringify(inCanonicalOrder(value));
      // Well-formed JSON.stringify writes a lone surrogate as a `\udxxx` escape, and nothing
      // else makes that sequence except a literal backslash before "ud": the writer tells the
      // two apart (and refuses the first), so any hit goes there.
      if (!text.includes('\\ud')) return text;
    } catch (error) {
      if (error !== NEEDS_WRITER) throw error;
    }
    return writeCanonical(value);
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
 * same refusals as {@link canonicalize}, slower on V8.
 */
export function writeCanonical(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return serializeString(value);
    case 'number':
      return serializeNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return writeArray(value);
      return writeObject(value as Record<string, unknown>);
    default:
      throw notJson(value);
  }
}

function writeArray(items: readonly unknown[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) out += (i > 0 ? ',' : '') + writeCanonical(items[i]);
  return out + ']';
}

function writeObject(object: Record<string, unknown>): string {
  checkPlainObject(object);
  let out = '{';
  let first = true;
  for (const key of sortKeys(Object.keys(object))) {
    out += (first ? '' : ',') + serializeString(key) + ':' + writeCanonical(object[key]);
    first = false;
  }
  return out + '}';
}

/**
 * A finite number as ECMAScript `Number::toString` writes it (RFC 8785 §3.2.2.3).
 * @throws {UnrepresentableError} for NaN and ±Infinity.
 */
export function serializeNumber(value: number): string {
  checkNumber(value);
  // JSON.stringify of a finite number is Number::toString (-0 included), and faster than String.
  return JSON.stringify(value);
}

/** Every character that stands for itself between quotes: printable ASCII but `"` and `\`. */
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * A string as RFC 8785 §3.2.2.2 writes it, quotes included.
 * @throws {UnrepresentableError} for a string holding a lone surrogate.
 */
export function serializeString(value: string): string {
  // Most keys and values are printable ASCII: nothing to escape, nothing to check.
  if (PLAIN_ASCII.test(value)) return '"' + value + '"';
  checkString(value);
  // ES2019's well-formed JSON.stringify escapes exactly the RFC 8785 set, with lowercase hex.
  return JSON.stringify(value);
}
