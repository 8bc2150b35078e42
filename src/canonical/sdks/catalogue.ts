/**
 * The MCPulse SDKs as their published code hashes arguments: one model per SDK, version and
 * source named. This is what a real server sends; the hand-rolled encoders in `../traps` are the
 * other view — what you get if you hash arguments yourself with a language's usual JSON encoder.
 *
 * Every public SDK (TypeScript, Go, Ruby, PHP, .NET, Kotlin) canonicalizes by hand, RFC 8785
 * over IEEE doubles, keys in UTF-16 order — so they agree with each other on numbers, escapes
 * and key order, and part only where their runtime's JSON parser (or its UTF-8 encoder) does
 * something of its own: a lone surrogate, very deep nesting, PHP's associative arrays, and
 * `null` arguments. Python, Rust and Swift have no public source: they are modelled from the
 * product's documentation (they run the shared conformance fixture) and their runtime's
 * parser, and say so (`evidence: 'docs'`).
 */
import type { JsonNumber } from '../ast.js';
import type { Sdk } from '../diagnostics.js';
import { DOUBLE_FORMATS } from '../numbers.js';
import type { Style } from '../traps/encode.js';
import { EncodeFailure } from '../traps/notes.js';
import type { StringRules } from '../traps/strings.js';

/** Where an SDK's hashing code is published. */
export interface SdkSource {
  repo: string;
  /** The files that decide the hash: the canonicalizer and the hashing entry point. */
  paths: string[];
  /** The commit read, where the repository has no tagged release for the version. */
  commit: string;
}

/** One SDK's hashing, as its code does it. */
export interface SdkModel {
  id: Sdk;
  /** The package as users install it, e.g. `@mcpulse/sdk`. */
  name: string;
  /** The version read (the package's own version constant or manifest). */
  version: string;
  /** `source`: read from the SDK's public code; `docs`: no public source, modelled from docs. */
  evidence: 'source' | 'docs';
  source?: SdkSource;
  /** What its hashing does, in one line. */
  label: string;
  /** `null` arguments: TS hashes `null`; every other SDK treats them as absent (`{}`). */
  nullArguments: 'null' | 'absent';
  /** How the model writes a parsed text (RFC 8785 with this SDK's parser and encoder). */
  style: Style;
  /** The facts the model rests on, each with where it is in the source. */
  facts: string[];
  /**
   * Refusals that happen in the host's JSON parser, before the SDK sees a call: the MCP request
   * itself does not parse, so no call payload is sent at all — not a 000000000000 hash.
   */
  refusedByParser?: readonly ('depth' | 'lone-surrogate' | 'lone-high-surrogate')[];
  /**
   * The entry point `style` models, where an SDK has more than one that hash differently
   * (PHP: arrays as the host decoded them, or the raw bytes).
   */
  mode?: SdkMode;
  /** The SDK's other entry points, each its own complete model. */
  otherModes?: readonly (SdkMode & {
    style: Style;
    refusedByParser?: SdkModel['refusedByParser'];
  })[];
}

/** One way into an SDK's hashing. */
export interface SdkMode {
  /** A short name: `assoc`, `raw`. */
  id: string;
  /** The entry point and how its arguments were decoded, in words. */
  entry: string;
}

const SHORT = '\b\t\n\f\r';

/** RFC 8785 over doubles, as every public SDK writes it; overflow has no double to write. */
function ecmascriptNumber(node: JsonNumber): string {
  if (!Number.isFinite(node.value)) {
    throw new EncodeFailure(`${node.text} overflows a double, which the SDK refuses to write`);
  }
  return DOUBLE_FORMATS.ecmascript(node.value);
}

/** An SDK that writes RFC 8785 itself; only its parser's lone-surrogate rule and depth differ. */
function rfc8785(
  loneSurrogate: StringRules['loneSurrogate'],
  maxDepth: number,
  options: { loneSurrogateFailure?: string; phpArrays?: 'as-decoded' } = {},
): Style {
  const strings: StringRules = { short: SHORT, loneSurrogate };
  if (options.loneSurrogateFailure !== undefined)
    strings.loneSurrogateFailure = options.loneSurrogateFailure;
  return {
    strings,
    number: ecmascriptNumber,
    keyOrder: 'utf16',
    maxDepth,
    ...(options.phpArrays ? { phpArrays: options.phpArrays } : {}),
  };
}

/** Every SDK, the TypeScript reference first, then in the order `hash` prints them. */
export const SDK_MODELS: readonly SdkModel[] = [
  {
    id: 'ts',
    name: '@mcpulse/sdk',
    version: '0.1.6',
    evidence: 'source',
    source: {
      repo: 'getmcpulse/mcpulse-sdk',
      paths: ['src/canonical.ts', 'src/hash.ts', 'tests/canonical.test.ts'],
      commit: 'a3a5c6860eeba1221db1c7a64c788084c4020e0d',
    },
    label: 'TypeScript @mcpulse/sdk 0.1.6: RFC 8785 via JSON.stringify per value',
    nullArguments: 'null',
    style: rfc8785('escape', Number.POSITIVE_INFINITY),
    facts: [
      'strings and numbers are written by JSON.stringify, so a lone surrogate is a lowercase \\udxxx escape; its test pins {"s":"a\\ud800b"} → {"s":"a\\\\ud800b"} (tests/canonical.test.ts)',
      'undefined arguments hash as {}; null is canonicalized as null (src/hash.ts)',
      'NaN, Infinity, BigInt and cycles give 000000000000 (src/hash.ts)',
      'recursive: the JavaScript stack is the only depth limit',
    ],
  },
  {
    id: 'python',
    name: 'mcpulse-sdk (PyPI)',
    version: 'not public',
    evidence: 'docs',
    label:
      'Python: no public source; documented to pass the shared fixture (RFC 8785), parser json.loads',
    nullArguments: 'absent',
    style: rfc8785('fail', 990, {
      loneSurrogateFailure:
        'json.loads accepts a lone surrogate, but encoding the canonical text to UTF-8 raises (assumed: the source is not public)',
    }),
    facts: [
      'no public repository: modelled as RFC 8785 (the product says every SDK runs canonical.json) with json.loads as the parser',
    ],
  },
  {
    id: 'go',
    name: 'github.com/getmcpulse/mcpulse-go',
    version: '44699b5 (no tagged release; go 1.25)',
    evidence: 'source',
    source: {
      repo: 'getmcpulse/mcpulse-go',
      paths: ['canonical.go', 'hash.go', 'watch.go', 'canonical_test.go'],
      commit: '44699b500f6b676e88fd432a6e934f3a96ee6249',
    },
    label: 'Go mcpulse-go: ArgsHashRaw — json.Unmarshal into any, then its own RFC 8785 writer',
    nullArguments: 'absent',
    style: rfc8785('replace', 1001),
    facts: [
      'a call is hashed by ArgsHashRaw(call.Params.Arguments): the raw wire bytes, json.Unmarshal into any (watch.go, hash.go)',
      'json.Unmarshal replaces a lone surrogate with U+FFFD, and the writer copies it (canonical.go writeString)',
      'absent arguments and JSON null hash as {} (ArgsHashRaw: len 0 or decoded nil → ArgsHash(nil))',
      'a number past float64 is an Unmarshal error → 000000000000; nesting past maxDepth 1000 → 000000000000 (canonical.go)',
      'omitted zero fields (omitempty) are on the payload, not the hash: is_empty false, duration_ms 0 … never touch args_hash',
    ],
  },
  {
    id: 'java',
    name: 'com.getmcpulse:mcpulse-kotlin',
    version: '0.1.0',
    evidence: 'source',
    source: {
      repo: 'getmcpulse/mcpulse-kotlin',
      paths: ['src/main/kotlin/com/mcpulse/Canonical.kt', 'src/main/kotlin/com/mcpulse/Hashing.kt'],
      commit: '4d9a19d359e1f9295e940e45f92ba0a8c006853e',
    },
    label:
      'Kotlin mcpulse-kotlin 0.1.0: its own RFC 8785 writer on Map/List/Number/String, UTF-8 by String.toByteArray',
    nullArguments: 'absent',
    style: rfc8785('question-mark', 1000),
    facts: [
      'a lone surrogate is copied into the canonical String and toByteArray(Charsets.UTF_8) turns it into ? (Hashing.kt; Java replaces malformed UTF-16 with ?, checked on this machine)',
      'null arguments hash as {} (Hashing.argsHash: args ?: emptyMap())',
      'nesting past MAX_DEPTH 1000 → 000000000000 (Canonical.kt); Jackson, which its tests read with, stops at 1000 too',
    ],
  },
  {
    id: 'dotnet',
    name: 'MCPulse (NuGet)',
    version: '0.1.0',
    evidence: 'source',
    source: {
      repo: 'getmcpulse/mcpulse-dotnet',
      paths: ['src/MCPulse/Canonical.cs', 'src/MCPulse/Hashing.cs'],
      commit: '13ca4c7a02958f208a2349b1151c5bfc96857f66',
    },
    label: '.NET MCPulse 0.1.0: its own RFC 8785 writer over System.Text.Json JsonElements',
    nullArguments: 'absent',
    style: rfc8785('fail', 64, {
      loneSurrogateFailure:
        'JsonElement.GetString refuses a lone surrogate (invalid UTF-16); ArgsHash catches it: 000000000000',
    }),
    // Past MaxDepth the host's deserializer refuses the request: no call reaches the SDK.
    refusedByParser: ['depth'],
    facts: [
      'arguments arrive as System.Text.Json JsonElements (request.Params.Arguments); strings are read with GetString (Canonical.cs WriteElement)',
      'null arguments hash as {} (Hashing.ArgsHash: args ?? new Dictionary)',
      "System.Text.Json's default MaxDepth is 64: deeper arguments never parse (unless the host's serializer options raise it; modelled at the default)",
    ],
  },
  {
    id: 'rust',
    name: 'mcpulse (crates.io)',
    version: 'not public',
    evidence: 'docs',
    label: 'Rust: no public source; documented to pass the shared fixture, parser serde_json',
    nullArguments: 'absent',
    style: rfc8785('fail', 127, {
      loneSurrogateFailure: 'serde_json refuses a lone surrogate while parsing (assumed parser)',
    }),
    facts: [
      'no public repository: modelled as RFC 8785 with serde_json as the parser (recursion limit 128)',
    ],
  },
  {
    id: 'ruby',
    name: 'mcpulse (gem)',
    version: '0.1.0',
    evidence: 'source',
    source: {
      repo: 'getmcpulse/mcpulse-ruby',
      paths: ['lib/mcpulse/canonical.rb', 'lib/mcpulse/hashing.rb', 'spec/run.rb'],
      commit: 'e9da449a6e1077d4dc61912cb8e5a43f6eee2f6c',
    },
    label: 'Ruby mcpulse 0.1.0: its own RFC 8785 writer on what JSON.parse gives',
    nullArguments: 'absent',
    style: rfc8785('fail', 100, {
      loneSurrogateFailure:
        'JSON.parse takes a lone low surrogate as three bytes that are not UTF-8; the canonical writer raises on them (char.ord) and Hashing.args_hash rescues it: 000000000000',
    }),
    refusedByParser: ['depth', 'lone-high-surrogate'],
    facts: [
      'Integers are written as doubles (Float(value)), so past 2^53 they round like TS; its spec pins it (spec/run.rb)',
      'nil arguments hash as {} (Hashing.args_hash)',
      'JSON.parse (json 2.6, measured here) refuses a lone high surrogate ("incomplete surrogate pair") and stops at max_nesting 100: the request never parses, so the call is never recorded — nothing is sent',
      'A lone low surrogate parses (as the bytes ED B0 80, not valid UTF-8); Canonical.write_string raises on it and Hashing.args_hash answers 000000000000 (measured with json 2.6.1)',
    ],
  },
  {
    id: 'php',
    name: 'mcpulse/mcpulse (Composer)',
    version: '0.1.6',
    evidence: 'source',
    source: {
      repo: 'getmcpulse/mcpulse-php',
      paths: ['src/Canonical.php', 'src/Hashing.php', 'src/MCPulse.php', 'src/Version.php'],
      commit: '84101942c532eb014640255983e54188aae915da',
    },
    label:
      'PHP mcpulse/mcpulse 0.1.6: MCPulse::record with arguments from json_decode(…, true) — {} is hashed as []',
    nullArguments: 'absent',
    style: rfc8785('fail', 511, {
      loneSurrogateFailure:
        'json_decode refuses a lone surrogate ("Single unpaired UTF-16 surrogate"): the request never decodes, so the call is never recorded',
      phpArrays: 'as-decoded',
    }),
    // The host's json_decode(…, true) of the request is what fails: nothing reaches record().
    refusedByParser: ['depth', 'lone-surrogate'],
    mode: {
      id: 'assoc',
      entry: 'MCPulse::record, arguments as json_decode(…, true) gave them (PHP MCP libraries)',
    },
    otherModes: [
      {
        id: 'raw',
        entry: 'Hashing::argsHashRaw on the raw argument bytes (decoded to objects)',
        style: rfc8785('fail', 511, {
          loneSurrogateFailure:
            'json_decode refuses a lone surrogate ("Single unpaired UTF-16 surrogate"): argsHashRaw catches it and gives 000000000000',
        }),
      },
    ],
    facts: [
      'MCPulse::record hashes the arguments as the host decoded them; PHP MCP servers decode with json_decode(…, true), where {} comes back as [] and {"0":…,"1":…} as a list — array_is_list writes both as JSON arrays (Canonical.php write)',
      'Hashing::argsHashRaw decodes to objects and agrees with RFC 8785 — the fix, where the raw bytes are at hand',
      'null arguments hash as {} ($args ?? new stdClass)',
      'json_decode stops at depth 512 and refuses a lone surrogate (measured here, PHP 8.2)',
    ],
  },
  {
    id: 'swift',
    name: 'mcpulse-swift',
    version: 'not public',
    evidence: 'docs',
    label:
      'Swift: no public source; documented to pass the shared fixture, parser JSONSerialization',
    nullArguments: 'absent',
    style: rfc8785('fail', Number.POSITIVE_INFINITY, {
      loneSurrogateFailure: 'JSONSerialization refuses a lone surrogate (assumed parser)',
    }),
    facts: ['no public repository: modelled as RFC 8785 with JSONSerialization as the parser'],
  },
];

/** The SDK ids, in `SDK_MODELS` order. */
export const SDK_IDS: readonly Sdk[] = SDK_MODELS.map((m) => m.id);

/** The model of one SDK. */
export function sdkModel(id: Sdk): SdkModel {
  return SDK_MODELS.find((m) => m.id === id)!;
}
