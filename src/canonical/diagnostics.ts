/**
 * Diagnostics for a pasted JSON text: everything on which SDKs or their parsers diverge before
 * any encoder runs — duplicate keys, numbers a double cannot hold as written, lone surrogates,
 * deep nesting, and arguments that are not an object. Each one names the SDKs it affects and
 * how; where that depends on a language's runtime, the answer comes from the trap model, so a
 * diagnostic and the `languages` output can never disagree.
 */
import type { JsonNode, JsonString } from './ast.js';
import {
  duplicate,
  nesting,
  numberDiagnostics,
  phpArray,
  stringDiagnostics,
  topLevel,
} from './diagnostic-rules.js';
import { DEFAULT_VARIANTS, LANGUAGES, type Language } from './traps/languages.js';

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
  'php-array',
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
      const asArray = phpArray(node, path);
      if (asArray !== undefined) found.add(asArray);
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

/** A diagnostic before its line and column are worked out. */
export type Unplaced = Omit<Diagnostic, 'line' | 'column'>;

/** Where the checks put what they find. */
export interface DiagnosticSink {
  add(d: Unplaced): void;
}

/** Diagnostics as they are found: at most {@link MAX_PER_CODE} of each code, the rest counted. */
class Found implements DiagnosticSink {
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
