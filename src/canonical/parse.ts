/**
 * A strict RFC 8259 parser for pasted JSON text. It accepts exactly what `JSON.parse` accepts
 * (so a text that works here works in every SDK's parser, as far as grammar goes), but keeps
 * what `JSON.parse` throws away — see `./ast.js` — and says clearly why a text is not JSON.
 *
 * It is iterative, with an explicit stack, so nesting depth is limited by memory rather than by
 * the call stack: the diagnostics need to describe a 100,000-deep input, not die on it.
 */
import type { JsonArray, JsonNode, JsonNumber, JsonObject, JsonString } from './ast.js';

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

/**
 * Parses one JSON text.
 * @throws {JsonSyntaxError} when `text` is not exactly one JSON value (whitespace aside).
 */
export function parseJson(text: string): ParsedJson {
  let pos = 0;
  const stack: Frame[] = [];
  let depth = 0;

  const fail = (reason: string, at = pos): never => {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at; i++) {
      if (text.charCodeAt(i) === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    throw new JsonSyntaxError(reason, at, line, at - lineStart + 1);
  };

  const skipWhitespace = () => {
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else return;
    }
  };

  const unexpected = (expected: string): never => {
    if (pos >= text.length) return fail(`unexpected end of input, expected ${expected}`);
    const c = text[pos]!;
    if (c === "'") return fail('strings and keys take double quotes, not single');
    if (c === '/' && (text[pos + 1] === '/' || text[pos + 1] === '*')) return fail('comments are not JSON');
    if (/^(NaN|-?Infinity)/.test(text.slice(pos, pos + 9))) {
      return fail('NaN and Infinity are not JSON numbers');
    }
    if (c === '\ufeff') return fail('a byte order mark (U+FEFF) is not JSON whitespace');
    return fail(`unexpected ${JSON.stringify(c)}, expected ${expected}`);
  };

  const readString = (): JsonString => {
    const start = pos++;
    let value = '';
    let chunk = pos;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === QUOTE) {
        value += text.slice(chunk, pos++);
        return { kind: 'string', value, escaped, start, end: pos };
      }
      if (c === BACKSLASH) {
        escaped = true;
        value += text.slice(chunk, pos);
        const e = text[pos + 1];
        if (e === 'u') {
          const hex = text.slice(pos + 2, pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('\\u must be followed by four hex digits');
          value += String.fromCharCode(parseInt(hex, 16));
          pos += 6;
        } else if (e !== undefined && e in SHORT_ESCAPES) {
          value += SHORT_ESCAPES[e];
          pos += 2;
        } else {
          fail(`invalid escape ${JSON.stringify('\\' + (e ?? ''))}`);
        }
        chunk = pos;
      } else if (c < 0x20 || Number.isNaN(c)) {
        if (Number.isNaN(c)) fail('unterminated string', start);
        fail(`a raw control character (U+${c.toString(16).padStart(4, '0').toUpperCase()}) must be escaped in a string`);
      } else pos++;
    }
  };

  const digits = () => {
    const from = pos;
    while (text.charCodeAt(pos) >= 0x30 && text.charCodeAt(pos) <= 0x39) pos++;
    return pos - from;
  };

  const readNumber = (): JsonNumber => {
    const start = pos;
    if (text.charCodeAt(pos) === 0x2d) pos++;
    const intStart = pos;
    const intDigits = digits();
    if (intDigits === 0) unexpected('a digit');
    if (intDigits > 1 && text.charCodeAt(intStart) === 0x30) fail('numbers cannot have leading zeros', intStart);
    if (text[pos] === '.') {
      pos++;
      if (digits() === 0) unexpected('a digit after the decimal point');
    }
    if (text[pos] === 'e' || text[pos] === 'E') {
      pos++;
      if (text[pos] === '+' || text[pos] === '-') pos++;
      if (digits() === 0) unexpected('a digit in the exponent');
    }
    const lexeme = text.slice(start, pos);
    return { kind: 'number', text: lexeme, value: Number(lexeme), start, end: pos };
  };

  const readScalar = (): JsonNode => {
    const c = text[pos];
    if (c === '"') return readString();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return readNumber();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return { kind: 'literal', value, start: pos - word.length, end: pos };
      }
    }
    return unexpected('a value');
  };

  const readKey = (): JsonString => {
    if (text.charCodeAt(pos) !== QUOTE) {
      if (text[pos] === '}') fail('trailing comma before }');
      unexpected('a key in double quotes');
    }
    const key = readString();
    skipWhitespace();
    if (text[pos] !== ':') unexpected("':' after the key");
    pos++;
    skipWhitespace();
    return key;
  };

  skipWhitespace();
  for (;;) {
    // A value starts here: open a container, or read a scalar.
    let node: JsonNode;
    const c = text[pos];
    if (c === '{' || c === '[') {
      const start = pos++;
      skipWhitespace();
      if (text[pos] === (c === '{' ? '}' : ']')) {
        pos++;
        node = c === '{' ? { kind: 'object', members: [], start, end: pos } : { kind: 'array', items: [], start, end: pos };
        depth = Math.max(depth, stack.length + 1);
      } else {
        stack.push(
          c === '{'
            ? { node: { kind: 'object', members: [], start, end: -1 }, key: readKey() }
            : { node: { kind: 'array', items: [], start, end: -1 } },
        );
        depth = Math.max(depth, stack.length);
        continue;
      }
    } else {
      node = readScalar();
    }

    // A value ended: hand it to its container, then close every container that ends here.
    for (;;) {
      const frame = stack[stack.length - 1];
      if (frame === undefined) {
        skipWhitespace();
        if (pos < text.length) unexpected('the end of input after the value');
        return { ast: node, depth };
      }
      if (frame.key === undefined) frame.node.items.push(node);
      else frame.node.members.push({ key: frame.key, value: node });
      skipWhitespace();
      const close = frame.key === undefined ? ']' : '}';
      if (text[pos] === ',') {
        pos++;
        skipWhitespace();
        if (frame.key !== undefined) frame.key = readKey();
        else if (text[pos] === ']') fail('trailing comma before ]');
        break;
      }
      if (text[pos] !== close) unexpected(`',' or '${close}'`);
      frame.node.end = ++pos;
      stack.pop();
      node = frame.node;
    }
  }
}
