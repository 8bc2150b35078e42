/**
 * The engine beyond the fixtures: key order above the BMP, every escape, deep and wide inputs,
 * what it refuses, the fast path held to the reference writer, and agreement with the RFC 8785
 * packages on npm.
 */
import { createHash } from 'node:crypto';
import erdtman from 'canonicalize';
import fc from 'fast-check';
import jsonCanon from 'json-canon';
import { describe, expect, it } from 'vitest';
import {
  canonicalize,
  sha256Hex,
  serializeString,
  UnrepresentableError,
  utf16Length,
  utf8Encode,
  utf8Length,
  writeCanonical,
  argsHash as pureArgsHash,
} from '../../src/canonical/index.js';
import { argsHash } from '../../src/canonical/node.js';

/** Arbitrary JSON values with full-Unicode strings and keys, including astral characters. */
const json = fc.jsonValue({ maxDepth: 5, stringUnit: 'grapheme' });

describe('key order', () => {
  it('sorts by UTF-16 code units: 🚀 (D83D DE80) before U+FFFD, unlike code-point order', () => {
    expect(canonicalize({ '\ufffd': 1, '🚀': 2 })).toBe('{"🚀":2,"\ufffd":1}');
    expect(canonicalize({ '\ue000': 1, '😀': 2, '\ud7ff': 3 })).toBe(
      '{"\ud7ff":3,"😀":2,"\ue000":1}',
    );
    expect(canonicalize({ b: 1, a: 2, B: 3, '': 4, ' ': 5 })).toBe(
      '{"":4," ":5,"B":3,"a":2,"b":1}',
    );
  });

  it('sorts array-index keys as strings, not numbers', () => {
    expect(canonicalize({ 10: 'a', 9: 'b', 1: 'c', '': 'd' })).toBe(
      '{"":"d","1":"c","10":"a","9":"b"}',
    );
  });

  it('sorts at every depth and keeps array order', () => {
    expect(canonicalize([{ b: [{ d: 1, c: 2 }], a: 0 }, 3, 1])).toBe(
      '[{"a":0,"b":[{"c":2,"d":1}]},3,1]',
    );
  });

  it('agrees with a comparator written from the RFC on random keys', () => {
    const byCodeUnits = (a: string, b: string) => {
      for (let i = 0; i < Math.min(a.length, b.length); i++) {
        if (a.charCodeAt(i) !== b.charCodeAt(i)) return a.charCodeAt(i) - b.charCodeAt(i);
      }
      return a.length - b.length;
    };
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: 'grapheme' }), { maxLength: 40 }), (keys) => {
        const object = Object.fromEntries(keys.map((k, i) => [k, i]));
        const expected = [...keys].sort(byCodeUnits);
        expect(Object.keys(JSON.parse(canonicalize(object)) as object).sort(byCodeUnits)).toEqual(
          expected,
        );
        expect(canonicalize(object)).toBe(
          '{' + expected.map((k) => `${JSON.stringify(k)}:${object[k]}`).join(',') + '}',
        );
      }),
      { numRuns: 500, seed: 1 },
    );
  });
});

describe('strings', () => {
  it('uses the short escapes, lowercase \\u00xx for other controls, and escapes nothing else', () => {
    for (let c = 0; c < 0x20; c++) {
      const short: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };
      expect(serializeString(String.fromCharCode(c))).toBe(
        `"${short[c] ?? '\\u' + c.toString(16).padStart(4, '0')}"`,
      );
    }
    expect(serializeString('"\\')).toBe('"\\"\\\\"');
    expect(serializeString("/<>&'+`\u007f\u2028\u2029é🚀\ufeff")).toBe(
      '"/<>&\'+`\u007f\u2028\u2029é🚀\ufeff"',
    );
    // Every non-control BMP code unit outside the surrogates stands for itself.
    for (let c = 0x20; c <= 0xffff; c++) {
      if (c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) continue;
      const ch = String.fromCharCode(c);
      if (serializeString(ch) !== `"${ch}"`) throw new Error(`U+${c.toString(16)} was escaped`);
    }
  });

  // Issue 11: the TypeScript SDK (@mcpulse/sdk 0.1.6) writes a lone surrogate as a lowercase
  // \udxxx escape (JSON.stringify) and its own test pins {"s":"a\ud800b"} → {"s":"a\\ud800b"};
  // the old model refused it as I-JSON does.
  it('escapes lone surrogates in values and keys as the TypeScript SDK does, keeps pairs', () => {
    for (const bad of ['\ud800', 'a\udc00', '\ud83d', 'x\ude80y', '\udc00\ud800']) {
      const escaped = JSON.stringify(bad);
      expect(escaped).toMatch(/\\ud[89a-f][0-9a-f]{2}/);
      expect(canonicalize(bad)).toBe(escaped);
      expect(canonicalize({ [bad]: 1 })).toBe(`{${escaped}:1}`);
      expect(canonicalize([{ a: [bad] }])).toBe(`[{"a":[${escaped}]}]`);
    }
    expect(canonicalize({ s: 'a\ud800b' })).toBe('{"s":"a\\ud800b"}');
    expect(argsHash({ s: 'a\ud800b' })).toBe('8d0d9d697f74');
    expect(canonicalize('\ud83d\ude80')).toBe('"🚀"');
    // A literal backslash before "ud" is not a lone surrogate.
    expect(canonicalize({ s: '\\ud800' })).toBe('{"s":"\\\\ud800"}');
  });
});

describe('what is not JSON', () => {
  class Point {
    x = 1;
  }
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  const refused: [string, unknown][] = [
    ['undefined', undefined],
    ['undefined member', { a: undefined }],
    ['function', () => 1],
    ['symbol', Symbol('s')],
    ['bigint', 1n],
    ['Date', new Date(0)],
    ['Map', new Map()],
    ['class instance', new Point()],
    // eslint-disable-next-line no-sparse-arrays -- the hole is the point
    ['hole', [1, , 3]],
    ['cycle', cycle],
  ];
  it.each(refused)('refuses %s', (_name, value) => {
    expect(() => canonicalize(value)).toThrow(UnrepresentableError);
    // Absent arguments (undefined at the top) hash as {}; anything else unrepresentable as 0s.
    expect(argsHash(value)).toBe(value === undefined ? '44136fa355b3' : '000000000000');
  });

  it('accepts null-prototype objects and an own __proto__ key', () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare.b = 1;
    bare.a = 2;
    expect(canonicalize(bare)).toBe('{"a":2,"b":1}');
    expect(canonicalize(JSON.parse('{"__proto__":{"x":1},"a":1}'))).toBe(
      '{"__proto__":{"x":1},"a":1}',
    );
  });
});

describe('deep and wide', () => {
  it('handles 1,000-deep objects and arrays, and refuses what exhausts the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 1000; i++) deep = i % 2 ? [deep] : { k: deep };
    const text = canonicalize(deep);
    expect(text.length).toBe(JSON.stringify(deep).length);
    let abyss: unknown = [];
    for (let i = 0; i < 200_000; i++) abyss = [abyss];
    expect(() => canonicalize(abyss)).toThrow(UnrepresentableError);
    expect(argsHash(abyss)).toBe('000000000000');
  });

  it('handles 20,000 keys and 100,000 items', () => {
    const wide = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, i) => [`k${(i * 7919) % 20_000}`, i]),
    );
    const keys = Object.keys(JSON.parse(canonicalize(wide)) as object);
    expect(keys).toEqual([...keys].sort());
    const long = Array.from({ length: 100_000 }, (_, i) => i / 3);
    expect(canonicalize(long)).toBe(JSON.stringify(long));
  });
});

describe('the native route and the reference writer', () => {
  /** Containers big enough (8+ members) that canonicalize takes the native route. */
  const big = fc.letrec((tie) => ({
    value: fc.oneof(
      { maxDepth: 2, depthIdentifier: 'big' },
      fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 0 }),
      tie('array'),
      tie('object'),
    ),
    array: fc.array(tie('value'), { minLength: 7, maxLength: 12, depthIdentifier: 'big' }),
    object: fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 6 }), tie('value'), {
      minKeys: 7,
      maxKeys: 12,
      depthIdentifier: 'big',
    }),
  })).value;

  it('give identical output on random values', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(canonicalize(value)).toBe(writeCanonical(value));
      }),
      { numRuns: 2000, seed: 2 },
    );
  });

  it('give identical output on big containers, where canonicalize takes the native route', () => {
    fc.assert(
      fc.property(big, (value) => {
        expect(canonicalize(value)).toBe(writeCanonical(value));
      }),
      { numRuns: 300, seed: 22 },
    );
  });

  it('agree where the native route hands back (index keys, __proto__, backslash-ud), at any size', () => {
    const pad = (o: Record<string, unknown>) => ({
      ...o,
      p1: 1,
      p2: 2,
      p3: 3,
      p4: 4,
      p5: 5,
      p6: 6,
      p7: 7,
      p8: 8,
    });
    const values = [
      { 0: 'a', b: 'c' },
      pad({ 10: 'a', 9: 'b', '': 'c' }),
      JSON.parse('{"__proto__":1,"z":[1]}') as unknown,
      pad(JSON.parse('{"__proto__":{"x":1}}') as Record<string, unknown>),
      { s: 'x\\udead' },
      pad({ s: 'x\\udead', t: ['\\ud800', 'é'] }),
      [{ 1: [{ 2: 3 }] }],
      Array.from({ length: 20 }, (_, i) => ({ [String(i)]: i, k: [i] })),
      // Same first key, different shapes: the per-shape plan must notice.
      Array.from({ length: 12 }, (_, i) =>
        i % 3 === 0
          ? { a: i, c: 1, b: 2 }
          : i % 3 === 1
            ? { a: i, ['__proto__']: 1 }
            : { a: i, b: 2 },
      ),
    ];
    for (const value of values) expect(canonicalize(value)).toBe(writeCanonical(value));
    // Lone surrogates: both routes write the TypeScript SDK's \udxxx escape (issue 11).
    for (const value of [pad({ s: '\ud800' }), Array.from({ length: 9 }, () => '\udc00')])
      expect(canonicalize(value)).toBe(writeCanonical(value));
    expect(canonicalize(Array.from({ length: 9 }, () => '\udc00'))).toBe(
      `[${Array(9).fill('"\\udc00"').join(',')}]`,
    );
  });

  it('never mutate or reorder the input', () => {
    const value = {
      b: [{ d: 1, c: 2 }],
      a: { z: 1, y: 2 },
      l: Array.from({ length: 9 }, (_, i) => ({ y: i, x: i })),
    };
    const before = JSON.stringify(value);
    canonicalize(value);
    writeCanonical(value);
    expect(JSON.stringify(value)).toBe(before);
  });
});

describe('agreement with the npm RFC 8785 packages', () => {
  it('matches json-canon and canonicalize on random values', () => {
    fc.assert(
      fc.property(json, (value) => {
        const ours = canonicalize(value);
        expect(jsonCanon(value)).toBe(ours);
        expect(erdtman(value)).toBe(ours);
      }),
      { numRuns: 2000, seed: 3 },
    );
  });
});

describe('hashing', () => {
  const nodeHex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

  it('the pure-TS SHA-256 equals node:crypto, across block boundaries and Unicode', () => {
    for (let n = 0; n < 300; n++) {
      const text = 'é🚀a'.repeat(n).slice(0, n);
      expect(sha256Hex(text)).toBe(nodeHex(text));
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(sha256Hex(text)).toBe(nodeHex(text));
      }),
      { numRuns: 500, seed: 4 },
    );
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('argsHash is the same in the browser build and on Node', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(pureArgsHash(value)).toBe(argsHash(value));
      }),
      { numRuns: 300, seed: 5 },
    );
  });

  it('encodes UTF-8 like Buffer, lone surrogates as U+FFFD', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 50 }), (text) => {
        expect(Buffer.from(utf8Encode(text)).equals(Buffer.from(text, 'utf8'))).toBe(true);
        expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
      }),
      { numRuns: 1000, seed: 6 },
    );
  });

  it('counts UTF-16 code units for the size fields', () => {
    expect(utf16Length('café')).toBe(4);
    expect(utf16Length('🚀')).toBe(2);
    expect(utf16Length(canonicalize({ s: 'café' }))).toBe(12);
  });
});
