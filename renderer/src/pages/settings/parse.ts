/** Reading what a person typed into a number field, before the server checks the range. */

/**
 * `2,000,000`, `2 000 000`, `2_000_000` and `$3.50` all read as numbers; anything else is
 * `null` (the field says so), and the server is the judge of the allowed range.
 */
export function parseAmount(text: string): number | null {
  const cleaned = text
    .trim()
    .replace(/^\$/, '')
    .replace(/[\s,_]/g, '');
  if (cleaned === '' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(cleaned)) return null;
  const n = Number(cleaned);
  return Number.isFinite(n) ? n : null;
}

/** A number as a person would type it back: `2000000` → `2,000,000`, `3.5` → `3.5`. */
export const typed = (n: number): string =>
  Number.isInteger(n) ? n.toLocaleString('en-US') : String(n);
