/**
 * RFC 8785 numbers are ECMAScript Number::toString. Checked on 100,000 seeded random doubles
 * (every exponent and subnormals equally likely) and 20,000 from fast-check: the canonical text
 * equals String(n) and JSON.stringify(n), and parses back to the same double. Plus the per-
 * language layouts the trap model uses, on the values where they switch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalize,
  decompose,
  DOUBLE_FORMATS,
  serializeNumber,
  UnrepresentableError,
} from '../../src/canonical/index.js';
import { prng, randomDouble } from './corpus.js';

/** The canonical text of `x` inside an array, as canonicalize writes it in context. */
function checkDouble(x: number): void {
  const text = serializeNumber(x);
  if (text !== String(x) || text !== JSON.stringify(x)) throw new Error(`${x}: ${text}`);
  const back = Number(text);
  // -0 is written 0 (RFC 8785 §3.2.2.3); everything else round-trips exactly.
  if (!(Object.is(back, x) || (x === 0 && back === 0)))
    throw new Error(`${x} came back as ${back}`);
}

describe('number serialization', () => {
  it('matches ECMAScript and round-trips on 100,000 random doubles', () => {
    const random = prng(20260809);
    let checked = 0;
    while (checked < 100_000) {
      const x = randomDouble(random);
      if (!Number.isFinite(x)) continue;
      checkDouble(x);
      checked++;
    }
    // And inside a document, where the fast path writes them.
    const sample = Array.from({ length: 2000 }, () => randomDouble(random)).filter(Number.isFinite);
    expect(canonicalize(sample)).toBe('[' + sample.map(String).join(',') + ']');
  });

  it('matches ECMAScript and round-trips on 20,000 fast-check doubles', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        checkDouble(x);
      }),
      { numRuns: 20_000, seed: 8785 },
    );
  });

  it('writes the wire-format §3 examples', () => {
    const cases: [number, string][] = [
      [1.0, '1'],
      [-0, '0'],
      [1e21, '1e+21'],
      [1e-7, '1e-7'],
      [0.000001, '0.000001'],
      [1e20, '100000000000000000000'],
      [1.2345678901234568e29, '1.2345678901234568e+29'],
      [5e-324, '5e-324'],
      [1.7976931348623157e308, '1.7976931348623157e+308'],
      [Number('9007199254740993'), '9007199254740992'],
    ];
    for (const [x, text] of cases) expect(serializeNumber(x)).toBe(text);
  });

  it('refuses NaN and ±Infinity', () => {
    for (const x of [Number.NaN, Infinity, -Infinity]) {
      expect(() => serializeNumber(x)).toThrow(UnrepresentableError);
      expect(() => canonicalize({ x })).toThrow(UnrepresentableError);
    }
  });

  it('decomposes into shortest digits and a decimal point', () => {
    expect(decompose(123.45)).toEqual({ negative: false, digits: '12345', point: 3 });
    expect(decompose(-1e-7)).toEqual({ negative: true, digits: '1', point: -6 });
    expect(decompose(-0)).toEqual({ negative: true, digits: '0', point: 1 });
    const random = prng(3);
    for (let i = 0; i < 5000; i++) {
      const x = randomDouble(random);
      if (!Number.isFinite(x) || x === 0) continue;
      const d = decompose(x);
      expect(Number(`${d.negative ? '-' : ''}0.${d.digits}e${d.point}`)).toBe(x);
    }
  });
});

describe('each language lays the same digits out its own way', () => {
  // The values where layouts switch; every row is checked against the real runtime in
  // encoders.test.ts (Python, Go, Ruby, PHP, Java) or taken from the runtime's source (.NET, Rust).
  const table: [number, Record<Exclude<keyof typeof DOUBLE_FORMATS, 'ecmascript'>, string>][] = [
    [1, { python: '1.0', go: '1', ruby: '1.0', php: '1', java: '1.0', dotnet: '1', rust: '1.0' }],
    [
      1e-7,
      {
        python: '1e-07',
        go: '1e-7',
        ruby: '1.0e-07',
        php: '1.0e-7',
        java: '1.0E-7',
        dotnet: '1E-07',
        rust: '1e-7',
      },
    ],
    [
      1e21,
      {
        python: '1e+21',
        go: '1e+21',
        ruby: '1.0e+21',
        php: '1.0e+21',
        java: '1.0E21',
        dotnet: '1E+21',
        rust: '1e21',
      },
    ],
    [
      1e16,
      {
        python: '1e+16',
        go: '10000000000000000',
        ruby: '1.0e+16',
        php: '10000000000000000',
        java: '1.0E16',
        dotnet: '1E+16',
        rust: '1e16',
      },
    ],
    [
      1e15,
      {
        python: '1000000000000000.0',
        go: '1000000000000000',
        ruby: '1.0e+15',
        php: '1000000000000000',
        java: '1.0E15',
        dotnet: '1E+15',
        rust: '1000000000000000.0',
      },
    ],
    [
      1e7,
      {
        python: '10000000.0',
        go: '10000000',
        ruby: '10000000.0',
        php: '10000000',
        java: '1.0E7',
        dotnet: '10000000',
        rust: '10000000.0',
      },
    ],
    [
      0.0001,
      {
        python: '0.0001',
        go: '0.0001',
        ruby: '0.0001',
        php: '0.0001',
        java: '1.0E-4',
        dotnet: '0.0001',
        rust: '0.0001',
      },
    ],
    [
      0.00001,
      {
        python: '1e-05',
        go: '0.00001',
        ruby: '1.0e-05',
        php: '1.0e-5',
        java: '1.0E-5',
        dotnet: '1E-05',
        rust: '0.00001',
      },
    ],
    [
      1e-6,
      {
        python: '1e-06',
        go: '0.000001',
        ruby: '1.0e-06',
        php: '1.0e-6',
        java: '1.0E-6',
        dotnet: '1E-06',
        rust: '1e-6',
      },
    ],
    [
      -0,
      {
        python: '-0.0',
        go: '-0',
        ruby: '-0.0',
        php: '-0',
        java: '-0.0',
        dotnet: '-0',
        rust: '-0.0',
      },
    ],
    [
      5e-324,
      {
        python: '5e-324',
        go: '5e-324',
        ruby: '5.0e-324',
        php: '5.0e-324',
        java: '4.9E-324',
        dotnet: '5E-324',
        rust: '5e-324',
      },
    ],
    [
      2068220303802674.5,
      {
        python: '2068220303802674.5',
        go: '2068220303802674.5',
        ruby: '2068220303802674.5',
        php: '2068220303802674.5',
        java: '2.0682203038026745E15',
        dotnet: '2.0682203038026745E+15',
        rust: '2068220303802674.5',
      },
    ],
    [
      1e23,
      {
        python: '1e+23',
        go: '1e+23',
        ruby: '1.0e+23',
        php: '1.0e+23',
        java: '1.0E23',
        dotnet: '1E+23',
        rust: '1e23',
      },
    ],
  ];
  it.each(table.map(([x, row]) => [String(x), x, row] as const))('%s', (_label, x, row) => {
    for (const [language, text] of Object.entries(row))
      expect([language, DOUBLE_FORMATS[language as keyof typeof row](x)]).toEqual([language, text]);
  });
});
