/**
 * How each language's runtime parses and writes JSON, as {@link Style}s: the building blocks of
 * the variants in `./languages.js`. One builder per language; its options are the switches a
 * port commonly flips. Limits and formats were measured against the real runtime where this
 * machine has it (see test/canonical/encoders.test.ts) and taken from the runtime's source
 * and documentation otherwise.
 */
import { isIntegerLexeme, type JsonNumber } from '../ast.js';
import { DOUBLE_FORMATS, exactInteger, fitsInt64, fitsInt64OrUint64 } from '../numbers.js';
import type { TrapId } from './catalogue.js';
import type { Style } from './encode.js';
import { EncodeFailure } from './notes.js';
import type { StringRules } from './strings.js';

/** Every encoder modelled here writes all five short escapes (Go before 1.22 aside). */
const SHORT = '\b\t\n\f\r';

/** A runtime that reads every number as a double, and refuses one that overflows. */
function doubles(format: (x: number) => string): (node: JsonNumber) => string {
  return (node) => {
    if (!Number.isFinite(node.value)) throw new EncodeFailure(`${node.text} overflows a double`);
    return format(node.value);
  };
}

/** A runtime that reads integer lexemes into an integer type while `fits`, the rest as doubles. */
function integers(
  fits: (lexeme: string) => boolean,
  format: (x: number) => string,
): (node: JsonNumber) => string {
  const asDouble = doubles(format);
  return (node) =>
    isIntegerLexeme(node.text) && fits(node.text) ? exactInteger(node.text) : asDouble(node);
}

/** Unbounded integers (Python int, Ruby Integer, Java BigInteger via Jackson). */
const unbounded = () => true;

/** Escapes every code unit from `from` up as `\uXXXX`; DEL gets its own trap. */
function escapeFrom(from: number): (c: number) => TrapId | undefined {
  return (c) => (c >= from ? (c === 0x7f ? 'escapes-del' : 'escapes-non-ascii') : undefined);
}

/**
 * Python `json.dumps(args, sort_keys=True)`: ints unbounded, floats by `repr`, `Infinity` for
 * an overflowed float (allow_nan defaults to True), keys in code-point order. With ensure_ascii
 * (the default) everything from DEL up is escaped and a lone surrogate becomes `\udXXX`;
 * without it, a lone surrogate fails when the SDK encodes the text to UTF-8. The recursion
 * limit (1000 frames, less those in use) stops json.loads a little before depth 1000.
 */
export function pythonStyle(options: { ensureAscii: boolean; spaces: boolean }): Style {
  const strings: StringRules = options.ensureAscii
    ? { short: SHORT, extra: escapeFrom(0x7f), loneSurrogate: 'escape' }
    : { short: SHORT, loneSurrogate: 'fail' };
  return {
    strings,
    number: (node) =>
      isIntegerLexeme(node.text)
        ? exactInteger(node.text)
        : Number.isFinite(node.value)
          ? DOUBLE_FORMATS.python(node.value)
          : node.value > 0
            ? 'Infinity'
            : '-Infinity',
    keyOrder: 'code-point',
    maxDepth: 990,
    ...(options.spaces ? { separators: [', ', ': '] as const } : {}),
  };
}

/**
 * Go `encoding/json` on a `map[string]any`: every number a float64 (ECMAScript layout, but -0
 * keeps its sign), `< > &` and U+2028/2029 escaped, lone surrogates turned into U+FFFD by the
 * decoder, map keys in byte order, nesting up to 10,000. Go 1.22 started writing `\b` and `\f`.
 */
export function goStyle(options: { shortBF: boolean }): Style {
  return {
    strings: {
      short: options.shortBF ? SHORT : '\t\n\r',
      extra: (c) =>
        c === 0x3c || c === 0x3e || c === 0x26
          ? 'escapes-html'
          : c === 0x2028 || c === 0x2029
            ? 'escapes-line-separators'
            : undefined,
      loneSurrogate: 'replace',
    },
    number: doubles(DOUBLE_FORMATS.go),
    keyOrder: 'code-point',
    maxDepth: 10_000,
  };
}

/**
 * Java/Kotlin: the JDK has no JSON encoder, so this is the common shape of one — a sorted map
 * (String.compareTo is UTF-16 order, as RFC 8785 wants), integers exact (long/BigInteger),
 * floats by `Double.toString` (measured), strings escaped as Jackson does (uppercase hex),
 * nesting up to Jackson's default 1,000.
 */
export function javaStyle(): Style {
  return {
    strings: { short: SHORT, upperHex: true, loneSurrogate: 'fail' },
    number: integers(unbounded, DOUBLE_FORMATS.java),
    keyOrder: 'utf16',
    maxDepth: 1000,
  };
}

/** What System.Text.Json's encoders escape besides controls: `< > & ' + \``. */
const DOTNET_HTML = new Set([0x3c, 0x3e, 0x26, 0x27, 0x2b, 0x60]);

/**
 * .NET System.Text.Json: numbers as doubles written "R" (`1E+21`), keys in ordinal (UTF-16)
 * order, MaxDepth 64, uppercase hex. JavaScriptEncoder.Default escapes `"` as `\u0022`, the
 * HTML-sensitive characters and everything outside ASCII; Create(UnicodeRanges.All) lets
 * non-ASCII through; UnsafeRelaxedJsonEscaping escapes only what JSON requires (and DEL).
 */
export function dotnetStyle(encoder: 'default' | 'unicode' | 'relaxed'): Style {
  return {
    strings: {
      short: SHORT,
      upperHex: true,
      quoteAsHex: encoder !== 'relaxed',
      extra: (c) =>
        c === 0x7f
          ? 'escapes-del'
          : encoder !== 'relaxed' && DOTNET_HTML.has(c)
            ? 'escapes-html'
            : encoder === 'default' && c >= 0x80
              ? 'escapes-non-ascii'
              : undefined,
      loneSurrogate: 'fail',
    },
    number: doubles(DOUBLE_FORMATS.dotnet),
    keyOrder: 'utf16',
    maxDepth: 64,
  };
}

/**
 * Rust `serde_json::Value`: i64/u64 stay integers, `-0` and everything else become f64 written
 * by ryu (`1.0`, `1e21`), keys in a BTreeMap (byte order) or, with preserve_order, as they
 * came; lone surrogates and overflow are parse errors; recursion limit 128.
 */
export function rustStyle(options: { preserveOrder: boolean }): Style {
  const number = integers(fitsInt64OrUint64, DOUBLE_FORMATS.rust);
  return {
    strings: { short: SHORT, loneSurrogate: 'fail' },
    number: (node) => (node.text === '-0' ? '-0.0' : number(node)),
    keyOrder: options.preserveOrder ? 'insertion' : 'code-point',
    maxDepth: 127,
  };
}

/**
 * Ruby `JSON.generate(JSON.parse(args))`: Integers unbounded, Floats by `Float#to_s`, keys as
 * they arrived (Hash order) unless sorted, max_nesting 100, lone surrogates and non-finite
 * floats refused.
 */
export function rubyStyle(options: { sorted: boolean }): Style {
  return {
    strings: { short: SHORT, loneSurrogate: 'fail' },
    number: integers(unbounded, DOUBLE_FORMATS.ruby),
    keyOrder: options.sorted ? 'code-point' : 'insertion',
    maxDepth: 100,
  };
}

/**
 * PHP `json_encode(json_decode($args))`: ints up to 64 bits, the rest floats (serialize_precision
 * -1), `/` and all non-ASCII escaped by default, keys sorted with ksort(SORT_STRING) (bytes)
 * unless not sorted at all, depth 512 (a text nested 512 deep already fails). With
 * `json_decode($args, true)` objects become arrays: `{}` comes back as `[]` and keys "0".."n-1"
 * as a list.
 */
export function phpStyle(options: {
  assoc?: boolean;
  unsorted?: boolean;
  unescaped?: boolean;
}): Style {
  return {
    strings: {
      short: SHORT,
      slash: !options.unescaped,
      // JSON_UNESCAPED_UNICODE still escapes U+2028/2029 (unless JSON_UNESCAPED_LINE_TERMINATORS).
      extra: options.unescaped
        ? (c) => (c === 0x2028 || c === 0x2029 ? 'escapes-line-separators' : undefined)
        : escapeFrom(0x80),
      loneSurrogate: 'fail',
    },
    number: integers(fitsInt64, DOUBLE_FORMATS.php),
    keyOrder: options.unsorted ? 'insertion' : 'code-point',
    maxDepth: 511,
    ...(options.assoc ? { phpArrays: true } : {}),
  };
}

/**
 * Swift `JSONSerialization` with `.sortedKeys` (documented only: no Swift here): `/` escaped
 * unless `.withoutEscapingSlashes`, and Bools that went through NSNumber written as 1/0.
 * Numbers and key order are taken as RFC 8785's, for want of a runtime to measure them on.
 */
export function swiftStyle(options: { boolsAsNumbers: boolean; slash: boolean }): Style {
  return {
    strings: { short: SHORT, slash: options.slash, loneSurrogate: 'fail' },
    number: doubles(DOUBLE_FORMATS.ecmascript),
    keyOrder: 'utf16',
    maxDepth: Number.POSITIVE_INFINITY,
    ...(options.boolsAsNumbers ? { booleans: ['1', '0'] as const } : {}),
  };
}
