/**
 * One encoder for every modelled language: a {@link Style} says how that language's runtime
 * parses and writes JSON, and {@link encodeAs} writes a parsed text the way it would, noting
 * each trap that made the output differ from RFC 8785.
 */
import {
  effectiveMembers,
  isIntegerLexeme,
  type JsonMember,
  type JsonNode,
  type JsonNumber,
  type JsonString,
} from '../ast.js';
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
  /**
   * PHP associative arrays: `{}` comes out as `[]`, and keys "0".."n-1" as a list — judged after
   * the keys are sorted (`true`: ksort, then json_encode) or as json_decode left them
   * (`'as-decoded'`: array_is_list on the decoded array, as the MCPulse PHP SDK does).
   */
  phpArrays?: boolean | 'as-decoded';
}

/**
 * `ast` as the runtime described by `style` would write it.
 * @throws {EncodeFailure} where that runtime would refuse the input.
 */
export function encodeAs(style: Style, ast: JsonNode, notes: TrapNotes): string {
  try {
    return new Encoder(style, notes).write(ast, 0);
  } catch (error) {
    if (error instanceof RangeError) throw new EncodeFailure('nesting too deep to model');
    throw error;
  }
}

/** One encoding run (a class rather than closures: it runs thousands of times a second). */
class Encoder {
  private readonly item: string;
  private readonly colon: string;

  constructor(
    private readonly style: Style,
    private readonly notes: TrapNotes,
  ) {
    [this.item, this.colon] = style.separators ?? [',', ':'];
  }

  write(node: JsonNode, depth: number): string {
    switch (node.kind) {
      case 'literal':
        return this.literal(node.value);
      case 'number':
        return this.number(node);
      case 'string':
        return this.string(node);
      case 'array': {
        this.checkDepth(depth + 1);
        if (node.items.length > 1 && this.item !== ',')
          this.notes.hit('spaces-after-separators', `, → ${JSON.stringify(this.item)}`);
        let out = '[';
        for (let i = 0; i < node.items.length; i++)
          out += (i > 0 ? this.item : '') + this.write(node.items[i]!, depth + 1);
        return out + ']';
      }
      case 'object':
        this.checkDepth(depth + 1);
        if (this.style.phpArrays === 'as-decoded') {
          const list = this.phpList(effectiveMembers(node.members), depth + 1);
          if (list !== undefined) return list;
        }
        return this.object(this.ordered(node.members), depth + 1);
    }
  }

  private literal(value: boolean | null): string {
    const { booleans } = this.style;
    if (value === null || booleans === undefined) return String(value);
    const text = booleans[value ? 0 : 1];
    this.notes.hit('bool-as-number', `${value} → ${text}`);
    return text;
  }

  private string(node: JsonString): string {
    if (node.plain) return '"' + node.value + '"';
    return quoteAs(
      decodeAs(node.value, this.style.strings, this.notes),
      this.style.strings,
      this.notes,
    );
  }

  /** A PHP array that is a list, written as a JSON array; `undefined` when it is a map. */
  private phpList(members: JsonMember[], depth: number): string | undefined {
    if (members.length === 0) {
      this.notes.hit('empty-object-as-array', '{} → []');
      return '[]';
    }
    if (members.every(({ key }, i) => key.value === String(i))) {
      this.notes.hit('object-as-list', '{"0":…,"1":…} → […,…]');
      return this.write(
        { kind: 'array', items: members.map((m) => m.value), start: 0, end: 0 },
        depth - 1,
      );
    }
    return undefined;
  }

  private object(members: JsonMember[], depth: number): string {
    if (this.style.phpArrays === true) {
      const list = this.phpList(members, depth);
      if (list !== undefined) return list;
    }
    if (members.length > 0 && this.colon !== ':')
      this.notes.hit('spaces-after-separators', `: → ${JSON.stringify(this.colon)}`);
    let out = '{';
    for (let i = 0; i < members.length; i++) {
      const { key, value } = members[i]!;
      const quoted = key.plain
        ? '"' + key.value + '"'
        : quoteAs(key.value, this.style.strings, this.notes);
      out += (i > 0 ? this.item : '') + quoted + this.colon + this.write(value, depth);
    }
    return out + '}';
  }

  private checkDepth(depth: number): void {
    if (depth > this.style.maxDepth)
      throw new EncodeFailure(
        `nesting depth ${depth} is past the limit of ${this.style.maxDepth}`,
        'depth',
      );
  }

  private number(node: JsonNumber): string {
    const text = this.style.number(node);
    const canonical = Number.isFinite(node.value) ? String(node.value) : undefined;
    if (text !== canonical) {
      this.notes.hit(
        numberTrap(node, text, canonical),
        `${node.text} → ${text} (canonical: ${canonical ?? 'unhashable'})`,
      );
    }
    return text;
  }

  /** Members as the runtime's map holds them (keys decoded, last duplicate wins), in its order. */
  private ordered(members: JsonMember[]): JsonMember[] {
    const { strings, keyOrder } = this.style;
    let decoded = members;
    for (let i = 0; i < members.length; i++) {
      const key = members[i]!.key;
      if (key.plain) continue;
      const value = decodeAs(key.value, strings, this.notes);
      if (value === key.value) continue;
      if (decoded === members) decoded = [...members];
      decoded[i] = { key: { ...key, value, plain: false }, value: members[i]!.value };
    }
    // Keys as written (the usual case): the orders are shared by every language rendering it.
    const orders = decoded === members ? ordersOf(members) : new Orders(decoded);
    const canonical = orders.utf16();
    const result =
      keyOrder === 'utf16'
        ? canonical
        : keyOrder === 'code-point'
          ? orders.codePoint()
          : orders.effective;
    let moved = 0;
    while (moved < result.length && result[moved] === canonical[moved]) moved++;
    if (moved < result.length) {
      const trap: TrapId =
        keyOrder === 'insertion' ? 'key-order-insertion' : 'key-order-code-point';
      this.notes.hit(
        trap,
        `${JSON.stringify(result[moved]!.key.value)} written before ${JSON.stringify(canonical[moved]!.key.value)}`,
      );
    }
    return result;
  }
}

/** An object's members as a map keeps them, and in each key order, each worked out once. */
class Orders {
  readonly effective: JsonMember[];
  private byUtf16: JsonMember[] | undefined;
  private byCodePoint: JsonMember[] | undefined;

  constructor(members: JsonMember[]) {
    this.effective = effectiveMembers(members);
  }

  utf16(): JsonMember[] {
    return (this.byUtf16 ??= insertionSort([...this.effective], byUtf16));
  }

  codePoint(): JsonMember[] {
    return (this.byCodePoint ??= insertionSort([...this.effective], byCodePoint));
  }
}

const ordersCache = new WeakMap<JsonMember[], Orders>();

function ordersOf(members: JsonMember[]): Orders {
  let orders = ordersCache.get(members);
  if (orders === undefined) {
    orders = new Orders(members);
    ordersCache.set(members, orders);
  }
  return orders;
}

/** Stable and fast for the few members objects usually have; the built-in sort past that. */
function insertionSort<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  if (items.length > 16) return items.sort(compare);
  for (let i = 1; i < items.length; i++) {
    const item = items[i]!;
    let j = i - 1;
    while (j >= 0 && compare(items[j]!, item) > 0) {
      items[j + 1] = items[j]!;
      j--;
    }
    items[j + 1] = item;
  }
  return items;
}

function byUtf16(a: JsonMember, b: JsonMember): number {
  return a.key.value < b.key.value ? -1 : a.key.value > b.key.value ? 1 : 0;
}

function byCodePoint(a: JsonMember, b: JsonMember): number {
  return compareCodePoints(a.key.value, b.key.value);
}

/** Which trap explains a number written as `text` where RFC 8785 writes `canonical`. */
function numberTrap(node: JsonNumber, text: string, canonical: string | undefined): TrapId {
  if (canonical === undefined) return 'writes-non-finite';
  if (node.value === 0 && text.startsWith('-')) return 'negative-zero';
  if (isIntegerLexeme(node.text) && !Number.isSafeInteger(node.value) && text === node.text)
    return 'exact-big-integer';
  if (/\.0$/.test(text) && !canonical.includes('.') && !/e/i.test(canonical))
    return 'integral-float-fraction';
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
