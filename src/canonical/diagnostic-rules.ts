/**
 * The individual diagnostic checks `diagnose` runs over a parsed text, one per kind of input
 * feature. What each SDK does is read from a model, not restated: where the SDKs' own code
 * decides (lone surrogates, nesting, null arguments) from the SDK models (`SDK_MODELS`); for
 * number and key forms, which every published SDK writes as RFC 8785 does, from the
 * hand-rolled encoder model (`DEFAULT_VARIANTS`) — what a port that hashes by itself would do.
 */
import {
  effectiveMembers,
  isIntegerLexeme,
  type JsonNode,
  type JsonNumber,
  type JsonObject,
  type JsonString,
} from './ast.js';
import type { DiagnosticSink, SdkEffect, Unplaced } from './diagnostics.js';
import { EMPTY_ARGS_HASH, NULL_ARGS_HASH } from './hash.js';
import { isWellFormed } from './json-values.js';
import { decompose } from './numbers.js';
import { SDK_MODELS } from './sdks/catalogue.js';
import {
  HIGH_SURROGATE_REFUSAL,
  hasLoneHighSurrogate,
  parserRefusesLoneSurrogate,
} from './sdks/parser-refusal.js';
import { DEFAULT_VARIANTS, LANGUAGES } from './traps/languages.js';
import { EncodeFailure } from './traps/notes.js';

/** `top-level-null` and `top-level-not-object`: what TS and the other SDKs do with them. */
export function topLevel(ast: JsonNode, found: DiagnosticSink): void {
  if (ast.kind === 'literal' && ast.value === null) {
    found.add({
      code: 'top-level-null',
      severity: 'warning',
      message: `arguments are null: TS hashes null (${NULL_ARGS_HASH}), every other SDK treats them as absent and hashes {} (${EMPTY_ARGS_HASH})`,
      path: '',
      offset: ast.start,
      affects: [
        { sdk: 'ts', effect: `hashes the text null → ${NULL_ARGS_HASH}` },
        ...LANGUAGES.map((sdk) => ({
          sdk,
          effect: `treats null as absent and hashes {} → ${EMPTY_ARGS_HASH}`,
        })),
      ],
    });
  } else if (ast.kind !== 'object') {
    found.add({
      code: 'top-level-not-object',
      severity: 'warning',
      message: `arguments are ${ast.kind === 'literal' ? String(ast.value) : `a${ast.kind === 'array' ? 'n' : ''} ${ast.kind}`}, not an object: MCP tool arguments are an object`,
      path: '',
      offset: ast.start,
      affects: [
        { sdk: 'ts', effect: 'hashes the value as given' },
        ...LANGUAGES.map((sdk) => ({
          sdk,
          effect:
            'types arguments as a map: its MCP layer rejects the call, or the value hashes as given',
        })),
      ],
    });
  }
}

/** `nesting-depth`: which SDKs (their parser or their own depth limit) stop before this depth. */
export function nesting(ast: JsonNode, depth: number): Unplaced {
  const failing = SDK_MODELS.filter((m) => m.style.maxDepth < depth);
  return {
    code: 'nesting-depth',
    severity: depth > 1000 ? 'error' : 'warning',
    message: `nested ${depth} deep: past the depth limit of ${failing.map((m) => m.id).join(', ')} — where the parser stops, nothing is sent; where the SDK's own writer stops, it sends 000000000000`,
    path: '',
    offset: ast.start,
    affects: failing.map(({ id, style, refusedByParser }) => ({
      sdk: id,
      effect: refusedByParser?.includes('depth')
        ? `its parser stops at depth ${style.maxDepth}: the request never parses, so the call is not sent at all`
        : `stops at depth ${style.maxDepth}${id === 'python' ? ' (about: the recursion limit)' : ''}: cannot hash, sends 000000000000`,
    })),
  };
}

/**
 * `php-array`: an object PHP's associative arrays cannot tell from a list — `{}`, or keys "0",
 * "1", … in order. The PHP SDK's `MCPulse::record` hashes what the host's
 * `json_decode(…, true)` gave it, and writes such an array as a JSON array.
 */
export function phpArray(node: JsonObject, path: string): Unplaced | undefined {
  const members = effectiveMembers(node.members);
  const empty = members.length === 0;
  if (!empty && !members.every(({ key }, i) => key.value === String(i))) return undefined;
  return {
    code: 'php-array',
    severity: 'warning',
    message: empty
      ? 'an empty object: json_decode(…, true) turns it into an empty PHP array, which is written []'
      : 'an object keyed "0", "1", … in order: json_decode(…, true) turns it into a PHP list, which is written as a JSON array',
    path,
    offset: node.start,
    affects: [
      {
        sdk: 'php',
        effect: `MCPulse::record with json_decode(…, true) arguments hashes it as ${empty ? '[]' : 'an array'}; Hashing::argsHashRaw on the raw bytes agrees with TS`,
      },
    ],
  };
}

/** `duplicate-key`: which value every SDK keeps. */
export function duplicate(key: JsonString, first: JsonString, path: string): Unplaced {
  return {
    code: 'duplicate-key',
    severity: 'warning',
    message: `key ${JSON.stringify(key.value)} appears again (first at offset ${first.start}): every modelled SDK keeps the last value; RFC 8785 (I-JSON) forbids duplicates and strict parsers (Go encoding/json/v2, .NET with AllowDuplicateProperties=false) reject the text`,
    path,
    offset: key.start,
    affects: [
      { sdk: 'ts', effect: 'JSON.parse keeps the last value' },
      ...LANGUAGES.map((sdk) => ({
        sdk,
        effect:
          DEFAULT_VARIANTS[sdk].style.keyOrder === 'insertion'
            ? 'keeps the last value, written at the first occurrence’s position'
            : 'keeps the last value',
      })),
    ],
  };
}

/** What every SDK writes for one number: the value it will actually hash. */
function numberEffects(node: JsonNumber): SdkEffect[] {
  const canonical = Number.isFinite(node.value) ? String(node.value) : null;
  const effects: SdkEffect[] = [
    {
      sdk: 'ts',
      effect:
        canonical === null ? 'cannot hash it (not finite): 000000000000' : `writes ${canonical}`,
    },
  ];
  for (const sdk of LANGUAGES) {
    try {
      const text = DEFAULT_VARIANTS[sdk].style.number(node);
      effects.push({ sdk, effect: `writes ${text}${text === canonical ? '' : ' — hash differs'}` });
    } catch (error) {
      if (!(error instanceof EncodeFailure)) throw error;
      effects.push({ sdk, effect: `cannot parse or encode it (${error.message}): 000000000000` });
    }
  }
  return effects;
}

/** `number-overflow`, `number-underflow`, `negative-zero`, `unsafe-integer`, `number-form`. */
export function numberDiagnostics(node: JsonNumber, path: string, found: DiagnosticSink): void {
  const { text, value } = node;
  const base = { path, offset: node.start };
  if (!Number.isFinite(value)) {
    found.add({
      ...base,
      code: 'number-overflow',
      severity: 'error',
      message: `${text} is too large for a double: RFC 8785 cannot hash it`,
      affects: numberEffects(node),
    });
  } else if (value === 0 && /[1-9]/.test(text.replace(/[eE].*$/, ''))) {
    found.add({
      ...base,
      code: 'number-underflow',
      severity: 'warning',
      message: `${text} is too small for a double and reads as 0`,
      affects: numberEffects(node),
    });
  } else if (text.startsWith('-') && value === 0) {
    found.add({
      ...base,
      code: 'negative-zero',
      severity: 'warning',
      message: `${text} is negative zero: canonical 0, but some runtimes keep the sign`,
      affects: numberEffects(node),
    });
  } else if (isIntegerLexeme(text) && !Number.isSafeInteger(value)) {
    found.add({
      ...base,
      code: 'unsafe-integer',
      severity: 'warning',
      message: `${text} is past 2^53: a double holds ${String(value)}, which is what TS hashes; SDKs with big integers hash it exactly`,
      affects: numberEffects(node),
    });
  } else if (text !== String(value)) {
    found.add({
      ...base,
      code: 'number-form',
      severity: 'info',
      message: `${text} is written ${String(value)} in the canonical form (${numberFormReason(text, value)})`,
      affects: numberEffects(node),
    });
  }
}

function numberFormReason(text: string, value: number): string {
  const mantissa = text.replace(/^-/, '').replace(/[eE].*$/, '');
  const significant = mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  // The canonical digits are the shortest that round-trip: different digits mean rounding.
  if (significant !== decompose(value).digits) return 'more digits than a double holds';
  if (/\.\d*0$/.test(mantissa)) return 'zeros after the decimal point';
  if (/[eE]/.test(text)) return 'an exponent the canonical form does not use';
  return 'a different layout';
}

/** `lone-surrogate`, and `string-form` for escapes the canonical form writes differently. */
export function stringDiagnostics(
  node: JsonString,
  path: string,
  text: string,
  found: DiagnosticSink,
): void {
  if (!isWellFormed(node.value)) {
    // What the SDKs' own code does (src/canonical/sdks), not what a hand-rolled encoder would.
    const effects: SdkEffect[] = SDK_MODELS.map(({ id, style, evidence, refusedByParser }) => {
      const rule = style.strings.loneSurrogate;
      const loneHigh = hasLoneHighSurrogate(node.value);
      if (rule === 'fail' && parserRefusesLoneSurrogate(refusedByParser, loneHigh))
        return {
          sdk: id,
          effect: refusedByParser?.includes('lone-surrogate')
            ? `not sent: ${style.strings.loneSurrogateFailure ?? 'its parser refuses the request'}`
            : HIGH_SURROGATE_REFUSAL,
        };
      const effect =
        rule === 'escape'
          ? 'writes it as a lowercase \\udxxx escape and hashes that'
          : rule === 'replace'
            ? 'replaces it with U+FFFD while parsing, and hashes that'
            : rule === 'question-mark'
              ? 'encodes it to UTF-8 as ?, and hashes that'
              : `cannot hash, 000000000000: ${style.strings.loneSurrogateFailure ?? 'its parser refuses it'}`;
      const unsourced = evidence === 'docs' && !effect.includes('source is not public');
      return { sdk: id, effect: unsourced ? `${effect} (no public source)` : effect };
    });
    found.add({
      code: 'lone-surrogate',
      severity: 'error',
      message: 'a string holds a lone surrogate (half of a UTF-16 pair)',
      path,
      offset: node.start,
      affects: effects,
    });
    return;
  }
  if (!node.escaped) return;
  // Same decoded value, different bytes: \u00e9 → é, \/ → /, \u000a → \n.
  const canonical = JSON.stringify(node.value);
  if (text.slice(node.start, node.end) !== canonical) {
    found.add({
      code: 'string-form',
      severity: 'info',
      message: `written with escapes the canonical form writes as ${truncate(canonical)}; every SDK decodes them alike`,
      path,
      offset: node.start,
      affects: [],
    });
  }
}

function truncate(text: string): string {
  return text.length > 60 ? text.slice(0, 57) + '…' : text;
}
