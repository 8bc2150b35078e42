/**
 * One encoder for every modelled language: a {@link Style} says how that language's runtime
 * parses and writes JSON, and {@link encodeAs} writes a parsed text the way it would, noting
 * each trap that made the output differ from RFC 8785.
 */
import { effectiveMembers, isIntegerLexeme, type JsonMember, type JsonNode, type JsonNumber } from '../ast.js';
import type { TrapId } from './catalogue.js';
import { EncodeFailure, type TrapNotes } from './notes.js';
import { decodeAs, quoteAs, type StringRules } from './strings.js';

/** How one language (one configuration of its encoder) turns JSON into text. */
export interface Style {
  strings: StringRules;
  /** How a number lexeme comes out after the runtime parsed it; throws {@link EncodeFailure}. */
  number: (node: JsonNumber) => string;
  /** `utf16` is RFC 8785; `code-point` is also UTF-8 byte order; `insertion` is no sorting. */
  keyOrder: 'utf16' | 'code-point' | 'insertion';
  /** The deepest nesting the runtime parses and writes; deeper fails. */
  maxDepth: number;
  /** Item and key separators, when not `,` and `:`. */
  separators?: readonly [item: string, key: string];
  /** How `true` and `false` come out, when not as themselves. */
  booleans?: readonly [whenTrue: string, whenFalse: string];
  /** PHP associative arrays: `{}` comes out as `[]`, and keys "0".."n-1" as a list. */
  phpArrays?: boolean;
}

/**
 * `ast` as the runtime described by `style` would write it.
 * @throws {EncodeFailure} where that runtime would refuse the input.
 */
export function encodeAs(style: Style, ast: JsonNode, notes: TrapNotes): string {
  const [item, colon] = style.separators ?? [',', ':'];

  const write = (node: JsonNode, depth: number): string => {
    switch (node.kind) {
      case 'literal':
        if (node.value === null || style.booleans === undefined) return String(node.value);
        notes.hit('bool-as-number', `${node.value} → ${style.booleans[node.value ? 0 : 1]}`);
        return style.booleans[node.value ? 0 : 1];
      case 'number':
        return number(node);
      case 'string':
        return quoteAs(decodeAs(node.value, style.strings, notes), style.strings, notes);
      case 'array': {
        checkDepth(depth + 1);
        if (node.items.length > 1 && item !== ',') notes.hit('spaces-after-separators', `, → ${JSON.stringify(item)}`);
        return '[' + node.items.map((child) => write(child, depth + 1)).join(item) + ']';
      }
      case 'object': {
        checkDepth(depth + 1);
        const members = ordered(node.members);
        if (style.phpArrays) {
          if (members.length === 0) {
            notes.hit('empty-object-as-array', '{} → []');
            return '[]';
          }
          if (members.every(({ key }, i) => key.value === String(i))) {
            notes.hit('object-as-list', `{"0":…} → [ … ]`);
            return '[' + members.map((m) => write(m.value, depth + 1)).join(item) + ']';
          }
        }
        if (members.length > 0 && colon !== ':') notes.hit('spaces-after-separators', `: → ${JSON.stringify(colon)}`);
        const parts = members.map(({ key, value }) => quoteAs(key.value, style.strings, notes) + colon + write(value, depth + 1));
        return '{' + parts.join(item) + '}';
      }
    }
  };

  const checkDepth = (depth: number) => {
    if (depth > style.maxDepth) throw new EncodeFailure(`nesting depth ${depth} is past the limit of ${style.maxDepth}`);
  };

  const number = (node: JsonNumber): string => {
    const text = style.number(node);
    const canonical = Number.isFinite(node.value) ? String(node.value) : undefined;
    if (text !== canonical) {
      notes.hit(numberTrap(node, text, canonical), `${node.text} → ${text} (canonical: ${canonical ?? 'unhashable'})`);
    }
    return text;
  };

  /** Members as the runtime's map holds them (keys decoded, last duplicate wins), in its order. */
  const ordered = (members: JsonMember[]): JsonMember[] => {
    const decoded = members.map(({ key, value }) => ({ key: { ...key, value: decodeAs(key.value, style.strings, notes) }, value }));
    const effective = effectiveMembers({ kind: 'object', members: decoded, start: 0, end: 0 });
    const canonical = [...effective].sort((a, b) => (a.key.value < b.key.value ? -1 : a.key.value > b.key.value ? 1 : 0));
    let result = canonical;
    if (style.keyOrder === 'code-point') result = [...effective].sort((a, b) => compareCodePoints(a.key.value, b.key.value));
    if (style.keyOrder === 'insertion') result = effective;
    const moved = result.findIndex((m, i) => m !== canonical[i]);
    if (moved !== -1) {
      const trap: TrapId = style.keyOrder === 'insertion' ? 'key-order-insertion' : 'key-order-code-point';
      notes.hit(trap, `${JSON.stringify(result[moved]!.key.value)} written before ${JSON.stringify(canonical[moved]!.key.value)}`);
    }
    return result;
  };

  try {
    return write(ast, 0);
  } catch (error) {
    if (error instanceof RangeError) throw new EncodeFailure('nesting too deep to model');
    throw error;
  }
}

/** Which trap explains a number written as `text` where RFC 8785 writes `canonical`. */
function numberTrap(node: JsonNumber, text: string, canonical: string | undefined): TrapId {
  if (canonical === undefined) return 'writes-non-finite';
  if (node.value === 0 && text.startsWith('-')) return 'negative-zero';
  if (isIntegerLexeme(node.text) && !Number.isSafeInteger(node.value) && text === node.text) return 'exact-big-integer';
  if (/\.0$/.test(text) && !canonical.includes('.') && !/e/i.test(canonical)) return 'integral-float-fraction';
  return 'number-format';
}

/**
 * Orders strings by Unicode code point — equivalently, by their UTF-8 bytes. Differs from
 * UTF-16 code-unit order only when a surrogate (U+D800–DFFF, i.e. a character above the BMP)
 * meets a code unit in U+E000–FFFF: in code-point order the surrogate side is larger.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // Move surrogates above U+E000–FFFF, keeping every other order as it is.
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}
