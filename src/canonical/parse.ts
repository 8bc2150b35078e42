/**
 * A strict RFC 8259 parser for pasted JSON text. It accepts exactly what `JSON.parse` accepts
 * (so a text that works here works in every SDK's parser, as far as grammar goes), but keeps
 * what `JSON.parse` throws away — see `./ast.js` — and says clearly why a text is not JSON.
 *
 * It is iterative, with an explicit stack, so nesting depth is limited by memory rather than by
 * the call stack: the diagnostics need to describe a 100,000-deep input, not die on it.
 */
import {
  isPlain,
  type JsonArray,
  type JsonNode,
  type JsonNumber,
  type JsonObject,
  type JsonString,
} from './ast.js';

/** Why a text is not JSON, and where (0-based offset; 1-based line and column). */
export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
  constructor(
    readonly reason: string,
    readonly offset: number,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} at line ${line}, column ${column}`);
  }
}

/** A parsed text: the tree, and how deep its arrays and objects nest (0 for a scalar). */
export interface ParsedJson {
  ast: JsonNode;
  depth: number;
}

type Frame = { node: JsonArray; key?: undefined } | { node: JsonObject; key: JsonString };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SHORT_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const LITERALS = [
  ['true', true],
  ['false', false],
  ['null', null],
] as const;

/**
 * Parses one JSON text.
 * @throws {JsonSyntaxError} when `text` is not exactly one JSON value (whitespace aside).
 */
export function parseJson(text: string): ParsedJson {
  return new Parser(text).parse();
}

/** One parse (a class rather than closures: `hash --jsonl` runs it per line). */
class Parser {
  private pos = 0;

  constructor(private readonly text: string) {}

  parse(): ParsedJson {
    const { text } = this;
    const stack: Frame[] = [];
    let depth = 0;
    this.skipWhitespace();
    for (;;) {
      // A value starts here: open a container, or read a scalar.
      let node: JsonNode;
      const c = text[this.pos];
      if (c === '{' || c === '[') {
        const start = this.pos++;
        this.skipWhitespace();
        if (text[this.pos] === (c === '{' ? '}' : ']')) {
          const end = ++this.pos;
          node =
            c === '{'
              ? { kind: 'object', members: [], start, end }
              : { kind: 'array', items: [], start, end };
          depth = Math.max(depth, stack.length + 1);
        } else {
          stack.push(
            c === '{'
              ? { node: { kind: 'object', members: [], start, end: -1 }, key: this.readKey() }
              : { node: { kind: 'array', items: [], start, end: -1 } },
          );
          depth = Math.max(depth, stack.length);
          continue;
        }
      } else {
        node = this.readScalar();
      }

      // A value ended: hand it to its container, then close every container that ends here.
      for (;;) {
        const frame = stack[stack.length - 1];
        if (frame === undefined) {
          this.skipWhitespace();
          if (this.pos < text.length) this.unexpected('the end of input after the value');
          return { ast: node, depth };
        }
        if (frame.key === undefined) frame.node.items.push(node);
        else frame.node.members.push({ key: frame.key, value: node });
        this.skipWhitespace();
        const close = frame.key === undefined ? ']' : '}';
        if (text[this.pos] === ',') {
          this.pos++;
          this.skipWhitespace();
          if (frame.key !== undefined) frame.key = this.readKey();
          else if (text[this.pos] === ']') this.fail('trailing comma before ]');
          break;
        }
        if (text[this.pos] !== close) this.unexpected(`',' or '${close}'`);
        frame.node.end = ++this.pos;
        stack.pop();
        node = frame.node;
      }
    }
  }

  private fail(reason: string, at = this.pos): never {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at; i++) {
      if (this.text.charCodeAt(i) === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    throw new JsonSyntaxError(reason, at, line, at - lineStart + 1);
  }

  private unexpected(expected: string): never {
    const { text, pos } = this;
    if (pos >= text.length) return this.fail(`unexpected end of input, expected ${expected}`);
    const c = text[pos]!;
    if (c === "'") return this.fail('strings and keys take double quotes, not single');
    if (c === '/' && (text[pos + 1] === '/' || text[pos + 1] === '*'))
      return this.fail('comments are not JSON');
    if (/^(NaN|-?Infinity)/.test(text.slice(pos, pos + 9)))
      return this.fail('NaN and Infinity are not JSON numbers');
    if (c === '\ufeff') return this.fail('a byte order mark (U+FEFF) is not JSON whitespace');
    return this.fail(`unexpected ${JSON.stringify(c)}, expected ${expected}`);
  }

  private skipWhitespace(): void {
    for (;;) {
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++;
      else return;
    }
  }

  private readString(): JsonString {
    const { text } = this;
    const start = this.pos++;
    let value = '';
    let chunk = this.pos;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(this.pos);
      if (c === QUOTE) {
        value += text.slice(chunk, this.pos++);
        return { kind: 'string', value, escaped, plain: isPlain(value), start, end: this.pos };
      }
      if (c === BACKSLASH) {
        escaped = true;
        value += text.slice(chunk, this.pos);
        const e = text[this.pos + 1];
        if (e === 'u') {
          const hex = text.slice(this.pos + 2, this.pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('\\u must be followed by four hex digits');
          value += String.fromCharCode(parseInt(hex, 16));
          this.pos += 6;
        } else if (e !== undefined && e in SHORT_ESCAPES) {
          value += SHORT_ESCAPES[e];
          this.pos += 2;
        } else {
          this.fail(`invalid escape ${JSON.stringify('\\' + (e ?? ''))}`);
        }
        chunk = this.pos;
      } else if (c >= 0x20) {
        this.pos++;
      } else if (Number.isNaN(c)) {
        this.fail('unterminated string', start);
      } else {
        this.fail(
          `a raw control character (U+${c.toString(16).padStart(4, '0').toUpperCase()}) must be escaped in a string`,
        );
      }
    }
  }

  /** Skips digits; returns how many. */
  private digits(): number {
    const from = this.pos;
    for (
      let c = this.text.charCodeAt(this.pos);
      c >= 0x30 && c <= 0x39;
      c = this.text.charCodeAt(++this.pos)
    );
    return this.pos - from;
  }

  private readNumber(): JsonNumber {
    const { text } = this;
    const start = this.pos;
    if (text[this.pos] === '-') this.pos++;
    const intStart = this.pos;
    const intDigits = this.digits();
    if (intDigits === 0) this.unexpected('a digit');
    if (intDigits > 1 && text[intStart] === '0')
      this.fail('numbers cannot have leading zeros', intStart);
    if (text[this.pos] === '.') {
      this.pos++;
      if (this.digits() === 0) this.unexpected('a digit after the decimal point');
    }
    if (text[this.pos] === 'e' || text[this.pos] === 'E') {
      this.pos++;
      if (text[this.pos] === '+' || text[this.pos] === '-') this.pos++;
      if (this.digits() === 0) this.unexpected('a digit in the exponent');
    }
    const lexeme = text.slice(start, this.pos);
    return { kind: 'number', text: lexeme, value: Number(lexeme), start, end: this.pos };
  }

  private readScalar(): JsonNode {
    const { text, pos } = this;
    const c = text[pos];
    if (c === '"') return this.readString();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.readNumber();
    for (const [word, value] of LITERALS) {
      if (text.startsWith(word, pos)) {
        this.pos += word.length;
        return { kind: 'literal', value, start: pos, end: this.pos };
      }
    }
    return this.unexpected('a value');
  }

  private readKey(): JsonString {
    const { text } = this;
    if (text.charCodeAt(this.pos) !== QUOTE) {
      if (text[this.pos] === '}') this.fail('trailing comma before }');
      this.unexpected('a key in double quotes');
    }
    const key = this.readString();
    this.skipWhitespace();
    if (text[this.pos] !== ':') this.unexpected("':' after the key");
    this.pos++;
    this.skipWhitespace();
    return key;
  }
}
