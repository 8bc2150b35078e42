/**
 * The strict parser: accepts exactly what JSON.parse accepts, builds the same value, and keeps
 * what JSON.parse forgets (lexemes, duplicates, offsets) — at any depth.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromValue, JsonSyntaxError, parseJson, toValue } from '../../src/canonical/index.js';

function acceptsLikeJsonParse(text: string): void {
  let native: unknown;
  let nativeOk = true;
  try {
    native = JSON.parse(text);
  } catch {
    nativeOk = false;
  }
  let ours: unknown;
  let oursOk = true;
  try {
    ours = toValue(parseJson(text).ast);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    oursOk = false;
  }
  if (nativeOk !== oursOk)
    throw new Error(
      `${JSON.stringify(text)}: JSON.parse ${nativeOk ? 'accepts' : 'rejects'}, parseJson ${oursOk ? 'accepts' : 'rejects'}`,
    );
  if (nativeOk) expect(ours).toStrictEqual(native);
}

describe('parseJson', () => {
  it('parses what JSON.stringify writes, to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), fc.boolean(), (value, pretty) => {
        acceptsLikeJsonParse(JSON.stringify(value, null, pretty ? 2 : undefined));
      }),
      { numRuns: 3000, seed: 10 },
    );
  });

  it('accepts and rejects exactly what JSON.parse does, on mangled JSON', () => {
    const pieces = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"',
      '\\',
      'u',
      '0',
      '1',
      '-',
      '+',
      '.',
      'e',
      'E',
      ' ',
      '\n',
      '\t',
      'true',
      'null',
      'fals',
      'a',
      '\\u00e9',
      '\\ud800',
      '\u0001',
      '/',
      '01',
      '"k"',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), (parts) =>
        acceptsLikeJsonParse(parts.join('')),
      ),
      { numRuns: 20_000, seed: 11 },
    );
    for (const text of [
      '',
      ' ',
      '\ufeff{}',
      '{"a":1,}',
      '[1,]',
      "{'a':1}",
      '[NaN]',
      '[Infinity]',
      '01',
      '1.',
      '.5',
      '-',
      '1e',
      '"\\x"',
      '"a\u0000"',
      '{"a" 1}',
      '[1 2]',
      '1 2',
      'nul',
      '"abc',
      '/**/1',
    ]) {
      acceptsLikeJsonParse(text);
    }
  });

  it('keeps number lexemes, duplicate members and offsets', () => {
    const { ast } = parseJson(' {"a": 1.0, "a": -0, "b": 1E400}');
    if (ast.kind !== 'object') throw new Error('not an object');
    expect(
      ast.members.map((m) => [
        m.key.value,
        m.value.kind === 'number' ? m.value.text : '',
        m.key.start,
      ]),
    ).toEqual([
      ['a', '1.0', 2],
      ['a', '-0', 12],
      ['b', '1E400', 21],
    ]);
    expect(ast.start).toBe(1);
    expect(ast.end).toBe(32);
    expect(toValue(ast)).toEqual({ a: -0, b: Infinity });
  });

  it('marks strings written with escapes', () => {
    const { ast } = parseJson('["a", "\\u0061", "\\/"]');
    if (ast.kind !== 'array') throw new Error('not an array');
    expect(ast.items.map((n) => (n.kind === 'string' ? [n.value, n.escaped] : []))).toEqual([
      ['a', false],
      ['a', true],
      ['/', true],
    ]);
  });

  it('says where and why a text is not JSON', () => {
    const cases: [string, string, number, number][] = [
      ['{\n  "a": 1,\n}', 'trailing comma before }', 3, 1],
      ["{'a': 1}", 'strings and keys take double quotes, not single', 1, 2],
      ['[1, 2 3]', "unexpected \"3\", expected ',' or ']'", 1, 7],
      ['{"a": 01}', 'numbers cannot have leading zeros', 1, 7],
      ['"tab\there"', 'a raw control character (U+0009) must be escaped in a string', 1, 5],
      ['// hi\n{}', 'comments are not JSON', 1, 1],
      ['[NaN]', 'NaN and Infinity are not JSON numbers', 1, 2],
      ['{"a": 1', "unexpected end of input, expected ',' or '}'", 1, 8],
    ];
    for (const [text, reason, line, column] of cases) {
      const error = (() => {
        try {
          parseJson(text);
        } catch (e) {
          return e as JsonSyntaxError;
        }
        throw new Error(`accepted ${text}`);
      })();
      expect([error.reason, error.line, error.column]).toEqual([reason, line, column]);
      expect(error.message).toBe(`${reason} at line ${line}, column ${column}`);
    }
  });

  it('parses 100,000-deep nesting without using the call stack', () => {
    const depth = 100_000;
    expect(parseJson('['.repeat(depth) + ']'.repeat(depth)).depth).toBe(depth);
    expect(parseJson('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)).depth).toBe(depth);
    expect(parseJson('1').depth).toBe(0);
    expect(parseJson('[[],[[]]]').depth).toBe(3);
  });

  it('builds JSON.parse values, __proto__ as an own key', () => {
    const value = toValue(parseJson('{"__proto__": {"x": 1}}').ast) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(value).toStrictEqual(JSON.parse('{"__proto__": {"x": 1}}'));
  });

  it('round-trips JavaScript values through fromValue', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(toValue(fromValue(value)!)).toStrictEqual(value);
      }),
      { numRuns: 500, seed: 12 },
    );
    expect(fromValue({ a: undefined })).toBeUndefined();
    expect(fromValue(-0)).toMatchObject({ kind: 'number', text: '-0' });
  });
});
