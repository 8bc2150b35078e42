/**
 * The native route `canonicalize` takes for big containers: put every object's keys in sorted
 * order (copying only the objects and arrays that need it), then let the native
 * `JSON.stringify` write the result as one flat string.
 *
 * Why that is exact: on a finite number or a well-formed string, `JSON.stringify` writes what
 * RFC 8785 asks for; it adds no whitespace when given no indent; and it writes an ordinary
 * object's string keys in insertion order (ECMA-262 OrdinaryOwnPropertyKeys). So the only work
 * left is to refuse what RFC 8785 refuses and to sort what it sorts.
 *
 * Two kinds of key break the insertion-order premise, so this gives up on them and the caller
 * falls back to the reference writer: array-index keys ("0", "42"), which every object lists
 * first in numeric order, and "__proto__", which assignment would not create as a key. Lone
 * surrogates need nothing: well-formed `JSON.stringify` writes each as the `\udxxx` escape the
 * TypeScript SDK sends.
 */
import { checkNumber, checkPlainObject, notJson, sortKeys } from './json-values.js';

/** Thrown by {@link inCanonicalOrder} when only the reference writer can serialize the value. */
export const NEEDS_WRITER: unique symbol = Symbol('needs the reference writer');

/**
 * `value` with the keys of every object in RFC 8785 order: the value itself where it already is,
 * otherwise a copy (only the parts that had to change are new).
 */
export function inCanonicalOrder(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      checkNumber(value);
      return value;
    case 'object':
      if (value === null) return null;
      if (Array.isArray(value)) return arrayInOrder(value);
      checkPlainObject(value);
      return objectInOrder(value as Record<string, unknown>);
    default:
      throw notJson(value);
  }
}

function arrayInOrder(items: readonly unknown[]): readonly unknown[] {
  let copy: unknown[] | undefined;
  for (let i = 0; i < items.length; i++) {
    // Index reads, not iteration helpers: a hole reads as undefined and is refused, not skipped.
    const item = items[i];
    const ordered = inCanonicalOrder(item);
    if (copy !== undefined) copy[i] = ordered;
    else if (ordered !== item) {
      copy = items.slice(0, i);
      copy[i] = ordered;
    }
  }
  return copy ?? items;
}

function objectInOrder(object: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(object);
  const { order } = planFor(keys);
  if (order !== null) {
    const copy: Record<string, unknown> = {};
    for (const key of order) copy[key] = inCanonicalOrder(object[key]);
    return copy;
  }
  // Already in order: copy only if something below had to change.
  let copy: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const child = object[key];
    const ordered = inCanonicalOrder(child);
    if (copy !== undefined) copy[key] = ordered;
    else if (ordered !== child) {
      copy = {};
      for (let j = 0; j < i; j++) copy[keys[j]!] = object[keys[j]!];
      copy[key] = ordered;
    }
  }
  return copy ?? object;
}

/** What to do with objects that have exactly these keys, in this order. */
interface Plan {
  keys: readonly string[];
  /** The keys sorted, or `null` when they already are. */
  order: readonly string[] | null;
}

/**
 * Plans by first key. Arguments are mostly arrays of same-shaped records, so the plan for the
 * last object with a given first key usually fits the next one, and sorting and checking its
 * keys again is skipped. Bounded, so a long-lived process hashing varied shapes stays small.
 */
const plans = new Map<string, Plan>();

function planFor(keys: string[]): Plan {
  const first = keys[0];
  const known = first === undefined ? undefined : plans.get(first);
  if (known !== undefined && sameKeys(known.keys, keys)) return known;
  let sorted = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (isArrayIndex(key) || key === '__proto__') throw NEEDS_WRITER;
    if (i > 0 && keys[i - 1]! > key) sorted = false;
  }
  const plan: Plan = { keys, order: sorted ? null : sortKeys([...keys]) };
  if (first !== undefined) {
    if (plans.size >= 256) plans.clear();
    plans.set(first, plan);
  }
  return plan;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether `key` is an array index (a canonical integer below 2^32 − 1). */
function isArrayIndex(key: string): boolean {
  const first = key.charCodeAt(0);
  if (first < 0x30 || first > 0x39) return false; // the common case: not a digit at all
  return /^(?:0|[1-9][0-9]{0,9})$/.test(key) && Number(key) < 4294967295;
}
