/**
 * The inputs the cross-language tests run through the model and the real encoders: the shared
 * fixtures, our vectors, edge cases, thousands of random doubles and a few hundred random
 * documents — every one a single-line JSON text, number lexemes kept as written.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parseJson, type JsonNode } from '../../src/canonical/index.js';

const root = new URL('../../', import.meta.url);

/** The shared fixture file, as text. */
export const FIXTURE_TEXT = readFileSync(new URL('fixtures/canonical.json', root), 'utf8');

/** Our own vectors (fixtures/canonical-vectors.json). */
export interface Vector {
  name: string;
  json: string;
  canonical: string | null;
  args_hash: string;
  languages: Record<string, string | null>;
}
export const VECTORS: Vector[] = (
  JSON.parse(readFileSync(new URL('fixtures/canonical-vectors.json', root), 'utf8')) as {
    vectors: Vector[];
  }
).vectors;

/** A node as one line of JSON, every number lexeme exactly as it was written. */
export function compactText(node: JsonNode): string {
  switch (node.kind) {
    case 'literal':
      return String(node.value);
    case 'number':
      return node.text;
    case 'string':
      return JSON.stringify(node.value);
    case 'array':
      return '[' + node.items.map(compactText).join(',') + ']';
    case 'object':
      return (
        '{' +
        node.members
          .map((m) => JSON.stringify(m.key.value) + ':' + compactText(m.value))
          .join(',') +
        '}'
      );
  }
}

/** The 23 shared fixture inputs, one line each. */
export function fixtureInputs(): string[] {
  const { ast } = parseJson(FIXTURE_TEXT);
  if (ast.kind !== 'object') throw new Error('fixture file is not an object');
  const fixtures = ast.members.find((m) => m.key.value === 'fixtures')!.value;
  if (fixtures.kind !== 'array') throw new Error('no fixtures array');
  return fixtures.items.map((f) => {
    if (f.kind !== 'object') throw new Error('fixture is not an object');
    return compactText(f.members.find((m) => m.key.value === 'input')!.value);
  });
}

/** Park–Miller: small, seedable, identical on every machine. */
export function prng(seed: number): () => number {
  let state = seed % 0x7fffffff || 1;
  return () => {
    state = (state * 48271) % 0x7fffffff;
    return state / 0x7fffffff;
  };
}

/** A double from 64 random bits: every exponent equally likely, subnormals included. */
export function randomDouble(random: () => number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setUint32(0, Math.floor(random() * 0x100000000));
  view.setUint32(4, Math.floor(random() * 0x100000000));
  return view.getFloat64(0);
}

/**
 * `count` finite doubles that stress layout: random bit patterns, plus decimal-looking values
 * near every power of ten where runtimes switch between plain and exponent forms.
 */
export function interestingDoubles(count: number, seed = 7): number[] {
  const random = prng(seed);
  const out: number[] = [];
  // Around every power of ten: one digit, a few, and all 16 or 17 (layout rules can hinge on it).
  for (let e = -325; e <= 308; e++) {
    for (const mantissa of [
      '1',
      '1.5',
      '9.999',
      (1 + random() * 9).toFixed(15),
      (1 + random() * 9).toFixed(16),
    ])
      out.push(Number(`${mantissa}e${e}`));
  }
  while (out.length < count) {
    const pick = random();
    const x =
      pick < 0.5
        ? randomDouble(random)
        : pick < 0.8
          ? Number(
              (random() * 10).toPrecision(1 + Math.floor(random() * 17)) +
                'e' +
                (Math.floor(random() * 60) - 30),
            )
          : Math.round(random() * 1e6) / 10 ** Math.floor(random() * 8);
    if (Number.isFinite(x)) out.push(random() < 0.3 ? -x : x);
  }
  return out.filter(Number.isFinite).slice(0, count);
}

/** Doubles as float lexemes (always with an exponent), `perLine` to a JSON array line. */
export function doubleLines(doubles: number[], perLine = 50): string[] {
  const lines: string[] = [];
  for (let i = 0; i < doubles.length; i += perLine) {
    lines.push(
      '[' +
        doubles
          .slice(i, i + perLine)
          .map((x) => (Object.is(x, -0) ? '-0.0e0' : x.toExponential()))
          .join(',') +
        ']',
    );
  }
  return lines;
}

/** Random JSON documents with full-Unicode keys and strings, reproducible by seed. */
export function randomDocuments(count: number, seed = 42): string[] {
  const arbitrary = fc.jsonValue({ maxDepth: 4, stringUnit: 'grapheme' });
  return fc.sample(arbitrary, { seed, numRuns: count }).map((value) => JSON.stringify(value));
}

/** Arrays nested `depth` deep. */
export function nested(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

/** Edge cases that each exercise one trap or diagnostic. */
export const EDGE_CASES: string[] = [
  '{"s":"\\ud800"}',
  '{"\\udc00":1}',
  '{"a":"x\\ud83d"}',
  '{"a":1e400}',
  '{"a":-1e400}',
  '{"a":1e-400}',
  '{"a":-0,"b":-0.0,"c":-0e5,"d":0e10}',
  '{"a":9007199254740993,"b":12345678901234567890,"c":-9223372036854775809,"d":18446744073709551616,"e":9223372036854775807,"f":18446744073709551615}',
  '{"a":1,"b":2,"a":3}',
  '{"b":1,"a":2,"b":3,"c":{"x":1,"x":{"y":2}}}',
  '{"__proto__":{"x":1},"a":1}',
  '{"10":"a","9":"b","1":"c","":"d","a":"e"}',
  '{"1":"b","0":"a"}',
  '{"0":"a","1":"b","2":"c"}',
  '{"0":"a","2":"c"}',
  '{"a":{},"b":[],"c":[{}],"d":{"e":{}}}',
  '{"s":"\\u0000\\u0001\\u0007\\b\\t\\n\\u000b\\f\\r\\u000e\\u001f \\"\\\\/\\u007f"}',
  '{"s":"<script>alert(\'x\') & \\"y\\"</script> +`"}',
  '{"s":"a\\u2028b\\u2029c","t":"\\u0085\\u00a0\\ufeff"}',
  '{"s":"café naïve 日本語 🚀 ä"}',
  '{"\\ufffd":1,"🚀":2,"\\ud7ff":3,"\\ue000":4,"a":5,"ｚ":6,"😀":7}',
  '{"o":{"😀":1,"ｚ":2},"p":[{"🚀":1,"\\uffff":2}]}',
  '{"\\n":1,"\\t":2,"\\u0001":3," ":4}',
  '{"url":"https://example.com/a/b?c=d&e=f"}',
  '{"a":1.0,"b":100.0,"c":-2.0,"d":0.0,"e":1E2,"f":1e0,"g":2.50}',
  '{"a":1e21,"b":1e-7,"c":1E+2,"d":1.5e300,"e":5e-324,"f":1e16,"g":1e15,"h":1e-5,"i":0.0001,"j":1e7,"k":1e-6,"l":123456789012345680000}',
  '{"a":0.1000000000000000055511151231257827,"b":3.141592653589793238462643383279}',
  '{"t":true,"f":false,"n":null,"l":[true,false,null]}',
  '[1,"a",{"b":2}]',
  '"hello"',
  '42',
  'true',
  '{}',
  '[]',
  nested(64),
  nested(65),
  nested(100),
  nested(101),
  nested(127),
  nested(128),
  nested(511),
  nested(512),
  nested(980),
  nested(1001),
  '{"a":' + '{"a":'.repeat(99) + '1' + '}'.repeat(100),
];
