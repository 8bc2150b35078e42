/**
 * The trap model: what each language's default encoder sends, as {@link Style}s (built in
 * `./styles.js`). The first
 * variant of each language is its default (the one `hash --json` reports); the others are the
 * usual alternatives a port might use, so `explainHash` can name whichever reproduces a hash.
 *
 * `evidence` says how each is known: measured against the real encoder in test/canonical
 * (batched, one process per language), or followed from the runtime's documentation.
 */
import type { Style } from './encode.js';
import {
  dotnetStyle,
  goStyle,
  javaStyle,
  phpStyle,
  pythonStyle,
  rubyStyle,
  rustStyle,
  swiftStyle,
} from './styles.js';

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

/** Every modelled encoder; the first of each language is that language's default. */
export const VARIANTS: readonly Variant[] = [
  {
    id: 'python',
    language: 'python',
    evidence: 'measured',
    label:
      "Python json.dumps(args, sort_keys=True, separators=(',', ':')) with ensure_ascii=True (the default)",
    style: pythonStyle({ ensureAscii: true, spaces: false }),
  },
  {
    id: 'python-unicode',
    language: 'python',
    evidence: 'measured',
    label: "Python json.dumps(args, sort_keys=True, separators=(',', ':'), ensure_ascii=False)",
    style: pythonStyle({ ensureAscii: false, spaces: false }),
  },
  {
    id: 'python-spaces',
    language: 'python',
    evidence: 'measured',
    label: 'Python json.dumps(args, sort_keys=True) with default separators and ensure_ascii=True',
    style: pythonStyle({ ensureAscii: true, spaces: true }),
  },
  {
    id: 'python-spaces-unicode',
    language: 'python',
    evidence: 'measured',
    label: 'Python json.dumps(args, sort_keys=True, ensure_ascii=False) with default separators',
    style: pythonStyle({ ensureAscii: false, spaces: true }),
  },
  {
    id: 'go',
    language: 'go',
    evidence: 'measured',
    label: 'Go json.Marshal of a map[string]any (Go 1.22+)',
    style: goStyle({ shortBF: true }),
  },
  {
    id: 'go-1.21',
    language: 'go',
    evidence: 'measured',
    label:
      'Go json.Marshal of a map[string]any (Go 1.21 and older: \\b and \\f as \\u0008 and \\u000c)',
    style: goStyle({ shortBF: false }),
  },
  {
    id: 'java',
    language: 'java',
    evidence: 'numbers',
    label:
      'Java/Kotlin: sorted map (String order), Double.toString for floats, Jackson string escaping (numbers measured; no JSON in the JDK)',
    style: javaStyle(),
  },
  {
    id: 'dotnet',
    language: 'dotnet',
    evidence: 'documented',
    label: 'System.Text.Json with JavaScriptEncoder.Default (the default), doubles written "R"',
    style: dotnetStyle('default'),
  },
  {
    id: 'dotnet-unicode',
    language: 'dotnet',
    evidence: 'documented',
    label: 'System.Text.Json with JavaScriptEncoder.Create(UnicodeRanges.All)',
    style: dotnetStyle('unicode'),
  },
  {
    id: 'dotnet-relaxed',
    language: 'dotnet',
    evidence: 'documented',
    label: 'System.Text.Json with JavaScriptEncoder.UnsafeRelaxedJsonEscaping',
    style: dotnetStyle('relaxed'),
  },
  {
    id: 'rust',
    language: 'rust',
    evidence: 'documented',
    label: 'Rust serde_json::to_string of a serde_json::Value (BTreeMap keys)',
    style: rustStyle({ preserveOrder: false }),
  },
  {
    id: 'rust-preserve-order',
    language: 'rust',
    evidence: 'documented',
    label: 'Rust serde_json with the preserve_order feature (insertion order)',
    style: rustStyle({ preserveOrder: true }),
  },
  {
    id: 'ruby',
    language: 'ruby',
    evidence: 'measured',
    label: 'Ruby JSON.generate(JSON.parse(args)) (keys in insertion order)',
    style: rubyStyle({ sorted: false }),
  },
  {
    id: 'ruby-sorted',
    language: 'ruby',
    evidence: 'measured',
    label: 'Ruby JSON.generate with keys sorted by String#<=> (bytes)',
    style: rubyStyle({ sorted: true }),
  },
  {
    id: 'php',
    language: 'php',
    evidence: 'measured',
    label: 'PHP json_encode(json_decode($args)) with keys sorted by ksort(SORT_STRING)',
    style: phpStyle({}),
  },
  {
    id: 'php-assoc',
    language: 'php',
    evidence: 'measured',
    label: 'PHP json_encode(json_decode($args, true)) with ksort(SORT_STRING): associative arrays',
    style: phpStyle({ assoc: true }),
  },
  {
    id: 'php-unsorted',
    language: 'php',
    evidence: 'measured',
    label: 'PHP json_encode(json_decode($args)) without sorting',
    style: phpStyle({ unsorted: true }),
  },
  {
    id: 'php-unescaped',
    language: 'php',
    evidence: 'measured',
    label: 'PHP json_encode with JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE, keys sorted',
    style: phpStyle({ unescaped: true }),
  },
  {
    id: 'swift',
    language: 'swift',
    evidence: 'documented',
    label: 'Swift JSONSerialization with .sortedKeys, Bools bridged through NSNumber (true → 1)',
    style: swiftStyle({ boolsAsNumbers: true, slash: true }),
  },
  {
    id: 'swift-bool',
    language: 'swift',
    evidence: 'documented',
    label: 'Swift JSONSerialization with .sortedKeys and real Bools',
    style: swiftStyle({ boolsAsNumbers: false, slash: true }),
  },
  {
    id: 'swift-unescaped-slashes',
    language: 'swift',
    evidence: 'documented',
    label: 'Swift JSONSerialization with [.sortedKeys, .withoutEscapingSlashes]',
    style: swiftStyle({ boolsAsNumbers: false, slash: false }),
  },
];

/** The default variant of each language. */
export const DEFAULT_VARIANTS: Record<Language, Variant> = Object.fromEntries(
  LANGUAGES.map((language) => [language, VARIANTS.find((v) => v.language === language)!]),
) as Record<Language, Variant>;

/** A variant by id. */
export function variant(id: string): Variant | undefined {
  return VARIANTS.find((v) => v.id === id);
}
