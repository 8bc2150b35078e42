/**
 * Every way a language's encoder was seen (or is documented) to part from RFC 8785, by a stable
 * id the UI and the CLI can key on.
 */

/** A stable id for one way an encoder's output differs from the canonical form. */
export type TrapId =
  | 'escapes-non-ascii'
  | 'escapes-html'
  | 'escapes-slash'
  | 'escapes-line-separators'
  | 'escapes-del'
  | 'hex-escapes-b-f'
  | 'uppercase-hex'
  | 'quote-as-hex'
  | 'lone-surrogate-replaced'
  | 'lone-surrogate-question-mark'
  | 'integral-float-fraction'
  | 'number-format'
  | 'negative-zero'
  | 'exact-big-integer'
  | 'writes-non-finite'
  | 'key-order-code-point'
  | 'key-order-insertion'
  | 'spaces-after-separators'
  | 'bool-as-number'
  | 'empty-object-as-array'
  | 'object-as-list'
  | 'null-as-absent';

/** One trap that fired for an input, with the first place it showed. */
export interface TrapHit {
  trap: TrapId;
  /** A short before → after, e.g. `é → \u00e9` or `1.0 → 1.0 (canonical 1)`. */
  example: string;
}

/** What each trap means, in one sentence a server author can act on. */
export const TRAPS: Record<TrapId, string> = {
  'escapes-non-ascii':
    'writes every non-ASCII character as a \\uXXXX escape; RFC 8785 writes it as UTF-8',
  'escapes-html':
    'escapes HTML-sensitive characters (< > & …) as \\u00XX; RFC 8785 writes them as they are',
  'escapes-slash': 'writes / as \\/; RFC 8785 does not escape it',
  'escapes-line-separators': 'escapes U+2028 and U+2029; RFC 8785 writes them as UTF-8',
  'escapes-del': 'escapes DEL (U+007F); RFC 8785 writes it as it is',
  'hex-escapes-b-f':
    'writes backspace and form feed as \\u0008 and \\u000c; RFC 8785 uses \\b and \\f',
  'uppercase-hex': 'writes \\u escapes with uppercase hex; RFC 8785 uses lowercase',
  'quote-as-hex': 'writes " as \\u0022; RFC 8785 uses \\"',
  'lone-surrogate-replaced':
    'replaces a lone surrogate with U+FFFD while parsing; the TypeScript SDK keeps it as a \\udxxx escape',
  'lone-surrogate-question-mark':
    'encodes a lone surrogate to UTF-8 as ?; the TypeScript SDK keeps it as a \\udxxx escape',
  'integral-float-fraction': 'keeps .0 on an integral float (1.0); RFC 8785 writes 1',
  'number-format': 'lays out numbers differently (exponent form or plain/exponent threshold)',
  'negative-zero': 'keeps the sign of -0; RFC 8785 writes 0',
  'exact-big-integer': 'keeps integers past 2^53 exact; RFC 8785 (a double) rounds them',
  'writes-non-finite': 'writes Infinity/NaN, which RFC 8785 cannot hash',
  'key-order-code-point':
    'sorts keys by code point (UTF-8 bytes); RFC 8785 sorts by UTF-16 code units, which differs above the BMP',
  'key-order-insertion': 'keeps keys in the order they arrived; RFC 8785 sorts them',
  'spaces-after-separators': 'writes ", " and ": " with spaces; RFC 8785 has no whitespace',
  'bool-as-number': 'writes true/false as 1/0',
  'empty-object-as-array': 'writes an empty object as []',
  'object-as-list': 'writes an object keyed "0", "1", … as a JSON array',
  'null-as-absent': 'treats null arguments as absent and hashes {}; TS hashes null',
};
