/**
 * The depth-safe JSON helpers (src/shared/deep-json.ts): the same text as JSON.stringify for
 * any value it can write, and text — not a stack overflow — for values it cannot.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  deeperLevelsText,
  jsonTextDepth,
  jsonValueDepth,
  prettyJsonCapped,
  stringifyJson,
} from '../../src/shared/deep-json.js';
import { asText } from '../../src/mcp/views.js';

const deepText = (n: number) => '['.repeat(n) + '"bottom"' + ']'.repeat(n);

describe('deep JSON', () => {
  it('writes what JSON.stringify writes, compact and indented', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(stringifyJson(v)).toBe(JSON.stringify(v));
        expect(prettyJsonCapped(v, Infinity).text).toBe(JSON.stringify(v, null, 2));
        expect(jsonValueDepth(v)).toBe(jsonTextDepth(JSON.stringify(v)));
      }),
      { numRuns: 500 },
    );
  });

  it('writes a 200,000-deep value where JSON.stringify overflows', () => {
    const text = `{"a":${deepText(200_000)},"b":"x"}`;
    const value: unknown = JSON.parse(text);
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(stringifyJson(value)).toBe(text);
    expect(jsonTextDepth(text)).toBe(200_001);
    expect(jsonValueDepth(value)).toBe(200_001);
  });

  it('pretty-prints the first levels and says how many are left out', () => {
    const value: unknown = JSON.parse(`{"deep":${deepText(10_000)}}`);
    const capped = prettyJsonCapped(value, 3);
    expect(capped.text).toBe(
      `{\n  "deep": [\n    [\n      ${JSON.stringify(deeperLevelsText(9_998))}\n    ]\n  ]\n}`,
    );
    expect(capped.hiddenLevels).toBe(9_998);
    expect(capped.depth).toBe(10_001);
    expect(prettyJsonCapped({ a: [1] }, 3)).toEqual({
      text: JSON.stringify({ a: [1] }, null, 2),
      hiddenLevels: 0,
      depth: 2,
    });
  });

  it('counts brackets outside strings only, escapes included', () => {
    expect(jsonTextDepth('"[[[\\"[["')).toBe(0);
    expect(jsonTextDepth('{"a":"]}","b":[{}]}')).toBe(3);
    expect(jsonTextDepth('[[[[')).toBe(4); // a cut body
  });

  it("the MCP server's answers: indented when they can be, compact at any depth", () => {
    expect(asText({ a: [1] }).content[0]!.text).toBe('{\n  "a": [\n    1\n  ]\n}');
    const text = `{"capabilities":${deepText(100_000)}}`;
    expect(asText(JSON.parse(text)).content[0]!.text).toBe(text);
  });
});
