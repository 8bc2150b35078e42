/**
 * Diagnostics for a pasted JSON text: everything on which SDKs or their parsers diverge before
 * any encoder runs — duplicate keys, numbers a double cannot hold as written, lone surrogates,
 * deep nesting, and arguments that are not an object. Each one names the SDKs it affects and
 * how; where that depends on a language's runtime, the answer comes from the trap model, so a
 * diagnostic and the `languages` output can never disagree.
 */
import { isIntegerLexeme, type JsonNode, type JsonNumber, type JsonString } from './ast.js';
import { EncodeFailure } from './traps/notes.js';
import { DEFAULT_VARIANTS, LANGUAGES, type Language } from './traps/languages.js';
import { NULL_ARGS_HASH, EMPTY_ARGS_HASH } from './hash.js';
import { isWellFormed } from './json-values.js';
import { decompose } from './numbers.js';

/** Every diagnostic code, stable for machines. */
export const DIAGNOSTIC_CODES = [
  'duplicate-key',
  'unsafe-integer',
  'number-overflow',
  'number-underflow',
  'negative-zero',
  'number-form',
  'lone-surrogate',
  'nesting-depth',
  'top-level-null',
  'top-level-not-object',
  'string-form',
] as const;

/** A diagnostic's stable code. */
export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];

/** An SDK: TypeScript (the reference) or one of the modelled languages. */
export type Sdk = 'ts' | Language;

/** What an input feature does in one SDK. */
export interface SdkEffect {
  sdk: Sdk;
  effect: string;
}

/** One thing about the input that SDKs treat differently. */
export interface Diagnostic {
  code: DiagnosticCode;
  /** `error`: some SDK cannot hash it; `warning`: SDKs hash different bytes; `info`: harmless. */
  severity: 'error' | 'warning' | 'info';
  message: string;
  /** JSON Pointer to the value (RFC 6901); `""` is the whole input. */
  path: string;
  /** UTF-16 offset in the text, and 1-based line and column. */
  offset: number;
  line: number;
  column: number;
  affects: SdkEffect[];
  /** How many more occurrences of this code were left out after this one. */
  more?: number;
}

/** Past this many of one code, the rest are counted, not listed. */
const MAX_PER_CODE = 20;

/** How deep the shallowest modelled parser goes (.NET's 64). */
const FIRST_DEPTH_LIMIT = Math.min(...LANGUAGES.map((l) => DEFAULT_VARIANTS[l].style.maxDepth));

/** All diagnostics for a parsed text, in source order within each code. */
export function diagnose(ast: JsonNode, text: string, depth: number): Diagnostic[] {
  const found = new Found();
  topLevel(ast, found);
  if (depth > FIRST_DEPTH_LIMIT) found.add(nesting(ast, depth));

  // Iterative walk: inputs may nest far deeper than the call stack.
  const stack: { node: JsonNode; path: string }[] = [{ node: ast, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (node.kind === 'number') numberDiagnostics(node, path, found);
    else if (node.kind === 'string') stringDiagnostics(node, path, text, found);
    else if (node.kind === 'array') {
      for (let i = node.items.length - 1; i >= 0; i--)
        stack.push({ node: node.items[i]!, path: `${path}/${i}` });
    } else if (node.kind === 'object') {
      const firstAt = new Map<string, JsonString>();
      for (let i = node.members.length - 1; i >= 0; i--) {
        const { key, value } = node.members[i]!;
        stack.push({ node: value, path: `${path}/${pointerToken(key.value)}` });
      }
      for (let i = 0; i < node.members.length; i++) {
        const key = node.members[i]!.key;
        const memberPath = stack[stack.length - 1 - i]!.path;
        const first = firstAt.get(key.value);
        if (first === undefined) firstAt.set(key.value, key);
        else found.add(duplicate(key, first, memberPath));
        stringDiagnostics(key, memberPath, text, found);
      }
    }
  }
  return found.finish(text);
}

type Unplaced = Omit<Diagnostic, 'line' | 'column'>;

/** Diagnostics as they are found: at most {@link MAX_PER_CODE} of each code, the rest counted. */
class Found {
  private readonly list: Unplaced[] = [];
  private readonly counts = new Map<DiagnosticCode, number>();

  add(d: Unplaced): void {
    const n = (this.counts.get(d.code) ?? 0) + 1;
    this.counts.set(d.code, n);
    if (n <= MAX_PER_CODE) this.list.push(d);
  }

  /** In source order (whole-input ones first), with line and column, surplus counted. */
  finish(text: string): Diagnostic[] {
    if (this.list.length === 0) return [];
    for (const [code, total] of this.counts) {
      if (total > MAX_PER_CODE)
        this.list.findLast((d) => d.code === code)!.more = total - MAX_PER_CODE;
    }
    const lines = lineStarts(text);
    return this.list
      .sort((a, b) => a.offset - b.offset)
      .map((d) => ({ ...d, ...position(lines, d.offset) }));
  }
}

function topLevel(ast: JsonNode, found: Found): void {
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

function nesting(ast: JsonNode, depth: number): Omit<Diagnostic, 'line' | 'column'> {
  const failing = LANGUAGES.filter((l) => DEFAULT_VARIANTS[l].style.maxDepth < depth);
  return {
    code: 'nesting-depth',
    severity: depth > 1000 ? 'error' : 'warning',
    message: `nested ${depth} deep: past the parser limit of ${failing.join(', ')}, which cannot hash it (000000000000)`,
    path: '',
    offset: ast.start,
    affects: failing.map((sdk) => ({
      sdk,
      effect: `stops at depth ${DEFAULT_VARIANTS[sdk].style.maxDepth}${sdk === 'python' ? ' (about: the recursion limit)' : ''}: cannot hash, sends 000000000000`,
    })),
  };
}

function duplicate(
  key: JsonString,
  first: JsonString,
  path: string,
): Omit<Diagnostic, 'line' | 'column'> {
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

function numberDiagnostics(node: JsonNumber, path: string, found: Found): void {
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

function stringDiagnostics(node: JsonString, path: string, text: string, found: Found): void {
  if (!isWellFormed(node.value)) {
    const effects: SdkEffect[] = [
      { sdk: 'ts', effect: 'RFC 8785 (I-JSON) forbids it: cannot hash, 000000000000' },
    ];
    for (const sdk of LANGUAGES) {
      const rule = DEFAULT_VARIANTS[sdk].style.strings.loneSurrogate;
      effects.push({
        sdk,
        effect:
          rule === 'escape'
            ? 'writes it as a \\u escape and hashes that'
            : rule === 'replace'
              ? 'replaces it with U+FFFD while parsing, and hashes that'
              : 'its parser or UTF-8 encoder refuses it: cannot hash, 000000000000',
      });
    }
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

/** A key as a JSON Pointer token (RFC 6901: `~` → `~0`, `/` → `~1`). */
function pointerToken(key: string): string {
  if (!key.includes('~') && !key.includes('/')) return key;
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function position(starts: number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo]! + 1 };
}
