/**
 * What counts as JSON data for RFC 8785, shared by the two writers in `./canonicalize.js`:
 * the checks that turn a JavaScript value away, and the key order.
 */

/** Thrown for a value RFC 8785 cannot serialize; its hash is `000000000000`. */
export class UnrepresentableError extends Error {
  override name = 'UnrepresentableError';
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether `text` has no lone surrogate: native where the engine has ES2024's method. */
export const isWellFormed: (text: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (text) => (text as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (text) => !LONE_SURROGATE.test(text);

/** Refuses NaN and ±Infinity, which JSON has no way to write. */
export function checkNumber(value: number): void {
  if (!Number.isFinite(value)) throw new UnrepresentableError(`${value} is not a JSON number`);
}

/**
 * Refuses class instances (`Date`, `Map`, …): `JSON.stringify` would quietly turn them into
 * something else, and a hash of "something else" is worse than no hash.
 */
export function checkPlainObject(object: object): void {
  const proto: unknown = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== null) {
    throw new UnrepresentableError('only plain objects are JSON (got a class instance)');
  }
}

/** The error for `undefined`, functions, symbols and bigints. */
export function notJson(value: unknown): UnrepresentableError {
  return new UnrepresentableError(`a ${typeof value} is not JSON`);
}

/**
 * Sorts keys in place by UTF-16 code units (RFC 8785 §3.2.3) and returns them. `<` and `>` on
 * strings already compare code units, as does `sort()` without a comparator; the insertion
 * sort is there because objects are small and it is several times faster than the built-in
 * sort on a handful of keys.
 */
export function sortKeys(keys: string[]): string[] {
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}
