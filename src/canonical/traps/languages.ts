/**
 * The trap model: what each language's default encoder sends, as {@link Style}s. The first
 * variant of each language is its default (the one `hash --json` reports); the others are the
 * usual alternatives a port might use, so `explainHash` can name whichever reproduces a hash.
 *
 * `evidence` says how each is known: measured against the real encoder in test/canonical
 * (batched, one process per language), or followed from the runtime's documentation.
 */
import { isIntegerLexeme, type JsonNumber } from '../ast.js';
import { DOUBLE_FORMATS, exactInteger, fitsInt64, fitsInt64OrUint64 } from '../numbers.js';
import type { TrapId } from './catalogue.js';
import type { Style } from './encode.js';
import { EncodeFailure } from './notes.js';
import type { StringRules } from './strings.js';

/** The languages `hash --json` reports, in its order. */
export const LANGUAGES = [
  'python',
  'go',
  'java',
  'dotnet',
  'rust',
  'ruby',
  'php',
  'swift',
] as const;

/** One of the modelled languages. */
export type Language = (typeof LANGUAGES)[number];

/** How a variant's model is known. */
export type Evidence = 'measured' | 'numbers' | 'documented';

/** One encoder configuration of one language. */
export interface Variant {
  /** Stable id, e.g. `python` or `python-unicode`. */
  id: string;
  language: Language;
  /** What code this is, in the language's own terms. */
  label: string;
  /**
   * How the model is known: `measured` against the real encoder by the tests; `numbers` only
   * (Java: the JDK has no JSON encoder, so only Double.toString is run); `documented` from the
   * runtime's documentation and source, where this machine cannot install it.
   */
  evidence: Evidence;
  style: Style;
}

const SHORT = '\b\t\n\f\r';

/** Refuses a number the runtime cannot hold (its parser or encoder rejects non-finite). */
function finite(format: (x: number) => string): (node: JsonNumber) => string {
  return (node) => {
    if (!Number.isFinite(node.value)) throw new EncodeFailure(`${node.text} overflows a double`);
    return format(node.value);
  };
}

/** A runtime that parses integer lexemes into an integer type while `fits` says they fit. */
function integers(
  fits: (lexeme: string) => boolean,
  format: (x: number) => string,
): (node: JsonNumber) => string {
  const asDouble = finite(format);
  return (node) =>
    isIntegerLexeme(node.text) && fits(node.text) ? exactInteger(node.text) : asDouble(node);
}

const nonAscii =
  (from: number) =>
  (c: number): TrapId | undefined =>
    c >= from ? (c === 0x7f ? 'escapes-del' : 'escapes-non-ascii') : undefined;
const always = () => true;

const PYTHON_ASCII: StringRules = { short: SHORT, extra: nonAscii(0x7f), loneSurrogate: 'escape' };
const PYTHON_UNICODE: StringRules = { short: SHORT, loneSurrogate: 'fail' };
const python = (unicode: boolean, spaces: boolean): Style => ({
  strings: unicode ? PYTHON_UNICODE : PYTHON_ASCII,
  // Python ints are unbounded; floats print with repr(); json.dumps writes inf as Infinity.
  number: (node) =>
    isIntegerLexeme(node.text)
      ? exactInteger(node.text)
      : Number.isFinite(node.value)
        ? DOUBLE_FORMATS.python(node.value)
        : node.value > 0
          ? 'Infinity'
          : '-Infinity',
  keyOrder: 'code-point',
  // CPython's recursion limit (1000, less the frames already in use) stops json.loads first.
  maxDepth: 990,
  ...(spaces ? { separators: [', ', ': '] as const } : {}),
});

const goStrings = (shortBF: boolean): StringRules => ({
  short: shortBF ? SHORT : '\t\n\r',
  extra: (c) =>
    c === 0x3c || c === 0x3e || c === 0x26
      ? 'escapes-html'
      : c === 0x2028 || c === 0x2029
        ? 'escapes-line-separators'
        : undefined,
  loneSurrogate: 'replace',
});
const go = (shortBF: boolean): Style => ({
  strings: goStrings(shortBF),
  number: finite(DOUBLE_FORMATS.go),
  keyOrder: 'code-point',
  maxDepth: 10_000,
});

const DOTNET_HTML = new Set([0x3c, 0x3e, 0x26, 0x27, 0x2b, 0x60]);
const dotnet = (mode: 'default' | 'unicode' | 'relaxed'): Style => ({
  strings: {
    short: SHORT,
    upperHex: true,
    quoteAsHex: mode !== 'relaxed',
    extra: (c) =>
      c === 0x7f
        ? 'escapes-del'
        : mode !== 'relaxed' && DOTNET_HTML.has(c)
          ? 'escapes-html'
          : mode === 'default' && c >= 0x80
            ? 'escapes-non-ascii'
            : undefined,
    loneSurrogate: 'fail',
  },
  number: finite(DOUBLE_FORMATS.dotnet),
  keyOrder: 'utf16',
  maxDepth: 64,
});

const rubyStyle = (sorted: boolean): Style => ({
  strings: { short: SHORT, loneSurrogate: 'fail' },
  number: integers(always, DOUBLE_FORMATS.ruby),
  keyOrder: sorted ? 'code-point' : 'insertion',
  maxDepth: 100,
});

const php = (options: { assoc?: boolean; unsorted?: boolean; unescaped?: boolean }): Style => ({
  strings: {
    short: SHORT,
    slash: !options.unescaped,
    // JSON_UNESCAPED_UNICODE still escapes U+2028/2029 (unless JSON_UNESCAPED_LINE_TERMINATORS).
    extra: options.unescaped
      ? (c) => (c === 0x2028 || c === 0x2029 ? 'escapes-line-separators' : undefined)
      : nonAscii(0x80),
    loneSurrogate: 'fail',
  },
  number: integers(fitsInt64, DOUBLE_FORMATS.php),
  keyOrder: options.unsorted ? 'insertion' : 'code-point',
  // json_decode's default depth is 512, and a text nested 512 deep already exceeds it.
  maxDepth: 511,
  ...(options.assoc ? { phpArrays: true } : {}),
});

const swift = (boolsAsNumbers: boolean, slash: boolean): Style => ({
  strings: { short: SHORT, slash, loneSurrogate: 'fail' },
  number: finite(DOUBLE_FORMATS.ecmascript),
  keyOrder: 'utf16',
  maxDepth: Number.POSITIVE_INFINITY,
  ...(boolsAsNumbers ? { booleans: ['1', '0'] as const } : {}),
});

/** Every modelled encoder; the first of each language is that language's default. */
export const VARIANTS: readonly Variant[] = [
  {
    id: 'python',
    language: 'python',
    evidence: 'measured',
    label:
      "Python json.dumps(args, sort_keys=True, separators=(',', ':')) with ensure_ascii=True (the default)",
    style: python(false, false),
  },
  {
    id: 'python-unicode',
    language: 'python',
    evidence: 'measured',
    label: "Python json.dumps(args, sort_keys=True, separators=(',', ':'), ensure_ascii=False)",
    style: python(true, false),
  },
  {
    id: 'python-spaces',
    language: 'python',
    evidence: 'measured',
    label: 'Python json.dumps(args, sort_keys=True) with default separators and ensure_ascii=True',
    style: python(false, true),
  },
  {
    id: 'python-spaces-unicode',
    language: 'python',
    evidence: 'measured',
    label: 'Python json.dumps(args, sort_keys=True, ensure_ascii=False) with default separators',
    style: python(true, true),
  },
  {
    id: 'go',
    language: 'go',
    evidence: 'measured',
    label: 'Go json.Marshal of a map[string]any (Go 1.22+)',
    style: go(true),
  },
  {
    id: 'go-1.21',
    language: 'go',
    evidence: 'measured',
    label:
      'Go json.Marshal of a map[string]any (Go 1.21 and older: \\b and \\f as \\u0008 and \\u000c)',
    style: go(false),
  },
  {
    id: 'java',
    language: 'java',
    evidence: 'numbers',
    label:
      'Java/Kotlin: sorted map (String order), Double.toString for floats, Jackson string escaping (numbers measured; no JSON in the JDK)',
    style: {
      strings: { short: SHORT, upperHex: true, loneSurrogate: 'fail' },
      number: integers(always, DOUBLE_FORMATS.java),
      keyOrder: 'utf16',
      maxDepth: 1000,
    },
  },
  {
    id: 'dotnet',
    language: 'dotnet',
    evidence: 'documented',
    label: 'System.Text.Json with JavaScriptEncoder.Default (the default), doubles written "R"',
    style: dotnet('default'),
  },
  {
    id: 'dotnet-unicode',
    language: 'dotnet',
    evidence: 'documented',
    label: 'System.Text.Json with JavaScriptEncoder.Create(UnicodeRanges.All)',
    style: dotnet('unicode'),
  },
  {
    id: 'dotnet-relaxed',
    language: 'dotnet',
    evidence: 'documented',
    label: 'System.Text.Json with JavaScriptEncoder.UnsafeRelaxedJsonEscaping',
    style: dotnet('relaxed'),
  },
  {
    id: 'rust',
    language: 'rust',
    evidence: 'documented',
    label: 'Rust serde_json::to_string of a serde_json::Value (BTreeMap keys)',
    style: {
      strings: { short: SHORT, loneSurrogate: 'fail' },
      number: rustNumber,
      keyOrder: 'code-point',
      maxDepth: 127,
    },
  },
  {
    id: 'rust-preserve-order',
    language: 'rust',
    evidence: 'documented',
    label: 'Rust serde_json with the preserve_order feature (insertion order)',
    style: {
      strings: { short: SHORT, loneSurrogate: 'fail' },
      number: rustNumber,
      keyOrder: 'insertion',
      maxDepth: 127,
    },
  },
  {
    id: 'ruby',
    language: 'ruby',
    evidence: 'measured',
    label: 'Ruby JSON.generate(JSON.parse(args)) (keys in insertion order)',
    style: rubyStyle(false),
  },
  {
    id: 'ruby-sorted',
    language: 'ruby',
    evidence: 'measured',
    label: 'Ruby JSON.generate with keys sorted by String#<=> (bytes)',
    style: rubyStyle(true),
  },
  {
    id: 'php',
    language: 'php',
    evidence: 'measured',
    label: 'PHP json_encode(json_decode($args)) with keys sorted by ksort(SORT_STRING)',
    style: php({}),
  },
  {
    id: 'php-assoc',
    language: 'php',
    evidence: 'measured',
    label: 'PHP json_encode(json_decode($args, true)) with ksort(SORT_STRING): associative arrays',
    style: php({ assoc: true }),
  },
  {
    id: 'php-unsorted',
    language: 'php',
    evidence: 'measured',
    label: 'PHP json_encode(json_decode($args)) without sorting',
    style: php({ unsorted: true }),
  },
  {
    id: 'php-unescaped',
    language: 'php',
    evidence: 'measured',
    label: 'PHP json_encode with JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE, keys sorted',
    style: php({ unescaped: true }),
  },
  {
    id: 'swift',
    language: 'swift',
    evidence: 'documented',
    label: 'Swift JSONSerialization with .sortedKeys, Bools bridged through NSNumber (true → 1)',
    style: swift(true, true),
  },
  {
    id: 'swift-bool',
    language: 'swift',
    evidence: 'documented',
    label: 'Swift JSONSerialization with .sortedKeys and real Bools',
    style: swift(false, true),
  },
  {
    id: 'swift-unescaped-slashes',
    language: 'swift',
    evidence: 'documented',
    label: 'Swift JSONSerialization with [.sortedKeys, .withoutEscapingSlashes]',
    style: swift(false, false),
  },
];

/** serde_json: i64/u64 stay integers, `-0` becomes the float -0.0, the rest f64 via ryu. */
function rustNumber(node: JsonNumber): string {
  if (node.text === '-0') return '-0.0';
  return integers(fitsInt64OrUint64, DOUBLE_FORMATS.rust)(node);
}

/** The default variant of each language. */
export const DEFAULT_VARIANTS: Record<Language, Variant> = Object.fromEntries(
  LANGUAGES.map((language) => [language, VARIANTS.find((v) => v.language === language)!]),
) as Record<Language, Variant>;

/** A variant by id. */
export function variant(id: string): Variant | undefined {
  return VARIANTS.find((v) => v.id === id);
}
