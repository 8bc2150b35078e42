/**
 * Every trap of every language, one row each: the input, what that encoder writes, and which
 * traps the model says explain the difference. (encoders.test.ts holds the measured languages
 * to their real encoders on a large corpus; this pins each documented trap by name.)
 */
import { describe, expect, it } from 'vitest';
import {
  parseJson,
  render,
  TRAPS,
  variant,
  VARIANTS,
  type TrapId,
} from '../../src/canonical/index.js';

type Row = [variantId: string, json: string, text: string | null, traps: TrapId[]];

const ROWS: Row[] = [
  // Python json.dumps(sort_keys=True, separators=(',', ':')), ensure_ascii on by default.
  ['python', '{"s":"café 🚀"}', '{"s":"caf\\u00e9 \\ud83d\\ude80"}', ['escapes-non-ascii']],
  ['python', '{"s":"\u007f"}', '{"s":"\\u007f"}', ['escapes-del']],
  ['python', '{"a":1.0,"b":1e2}', '{"a":1.0,"b":100.0}', ['integral-float-fraction']],
  ['python', '{"a":1e-7,"b":1e16}', '{"a":1e-07,"b":1e+16}', ['number-format']],
  ['python', '{"a":12345678901234567890}', '{"a":12345678901234567890}', ['exact-big-integer']],
  ['python', '{"a":1e400,"b":-1e400}', '{"a":Infinity,"b":-Infinity}', ['writes-non-finite']],
  [
    'python',
    '{"\ufffd":1,"🚀":2}',
    '{"\\ufffd":1,"\\ud83d\\ude80":2}',
    ['key-order-code-point', 'escapes-non-ascii'],
  ],
  // Issue 11: escaping a lone surrogate is what the TypeScript SDK does too, so not a trap.
  ['python', '{"s":"\\ud800"}', '{"s":"\\ud800"}', []],
  ['python', '{"a":-0.0}', '{"a":-0.0}', ['negative-zero']],
  ['python-unicode', '{"s":"café"}', '{"s":"café"}', []],
  ['python-unicode', '{"s":"\\ud800"}', null, []],
  [
    'python-spaces',
    '{"a":[1,2],"b":"é"}',
    '{"a": [1, 2], "b": "\\u00e9"}',
    ['spaces-after-separators', 'escapes-non-ascii'],
  ],
  ['python', '['.repeat(1001) + ']'.repeat(1001), null, []],
  // Go encoding/json.
  [
    'go',
    '{"s":"<a href=x>&</a>"}',
    '{"s":"\\u003ca href=x\\u003e\\u0026\\u003c/a\\u003e"}',
    ['escapes-html'],
  ],
  ['go', '{"s":"a\u2028b\u2029"}', '{"s":"a\\u2028b\\u2029"}', ['escapes-line-separators']],
  ['go', '{"s":"\\b\\f"}', '{"s":"\\b\\f"}', []],
  ['go-1.21', '{"s":"\\b\\f\\n"}', '{"s":"\\u0008\\u000c\\n"}', ['hex-escapes-b-f']],
  ['go', '{"a":-0,"b":-0.0}', '{"a":-0,"b":-0}', ['negative-zero']],
  ['go', '{"a":1.0,"b":1e21,"c":1e-7}', '{"a":1,"b":1e+21,"c":1e-7}', []],
  ['go', '{"\ufffd":1,"🚀":2}', '{"\ufffd":1,"🚀":2}', ['key-order-code-point']],
  ['go', '{"s":"\\ud800x"}', '{"s":"\ufffdx"}', ['lone-surrogate-replaced']],
  ['go', '{"a":1e400}', null, []],
  // Java/Kotlin: Double.toString, Jackson escaping.
  ['java', '{"a":1.0,"b":0.5}', '{"a":1.0,"b":0.5}', ['integral-float-fraction']],
  [
    'java',
    '{"a":1e21,"b":5e-324,"c":1e7,"d":1e-4}',
    '{"a":1.0E21,"b":4.9E-324,"c":1.0E7,"d":1.0E-4}',
    ['number-format'],
  ],
  ['java', '{"s":"\\u001f"}', '{"s":"\\u001F"}', ['uppercase-hex']],
  [
    'java',
    '{"a":12345678901234567890,"b":1}',
    '{"a":12345678901234567890,"b":1}',
    ['exact-big-integer'],
  ],
  ['java', '{"\ufffd":1,"🚀":2}', '{"🚀":2,"\ufffd":1}', []],
  // .NET System.Text.Json, JavaScriptEncoder.Default unless named.
  ['dotnet', '{"s":"é🚀"}', '{"s":"\\u00E9\\uD83D\\uDE80"}', ['escapes-non-ascii']],
  [
    'dotnet',
    '{"s":"<>&\'+`"}',
    '{"s":"\\u003C\\u003E\\u0026\\u0027\\u002B\\u0060"}',
    ['escapes-html'],
  ],
  ['dotnet', '{"s":"say \\"hi\\""}', '{"s":"say \\u0022hi\\u0022"}', ['quote-as-hex']],
  ['dotnet', '{"s":"\u007f\\u001f"}', '{"s":"\\u007F\\u001F"}', ['escapes-del', 'uppercase-hex']],
  [
    'dotnet',
    '{"a":1e21,"b":1e-7,"c":1000000000000000}',
    '{"a":1E+21,"b":1E-07,"c":1E+15}',
    ['number-format'],
  ],
  ['dotnet', '{"a":-0}', '{"a":-0}', ['negative-zero']],
  ['dotnet', '['.repeat(65) + ']'.repeat(65), null, []],
  ['dotnet-unicode', '{"s":"é<"}', '{"s":"é\\u003C"}', ['escapes-html']],
  ['dotnet-relaxed', '{"s":"é<\\"\u007f"}', '{"s":"é<\\"\\u007F"}', ['escapes-del']],
  // Rust serde_json.
  ['rust', '{"a":1.0,"b":1e2}', '{"a":1.0,"b":100.0}', ['integral-float-fraction']],
  ['rust', '{"a":1e21,"b":1e16,"c":1e-6}', '{"a":1e21,"b":1e16,"c":1e-6}', ['number-format']],
  ['rust', '{"a":-0}', '{"a":-0.0}', ['negative-zero']],
  [
    'rust',
    '{"a":18446744073709551615,"b":18446744073709551616}',
    '{"a":18446744073709551615,"b":1.8446744073709552e19}',
    ['exact-big-integer', 'number-format'],
  ],
  ['rust', '{"\ufffd":1,"🚀":2}', '{"\ufffd":1,"🚀":2}', ['key-order-code-point']],
  ['rust', '['.repeat(128) + ']'.repeat(128), null, []],
  ['rust-preserve-order', '{"b":1,"a":2}', '{"b":1,"a":2}', ['key-order-insertion']],
  // Ruby JSON.generate.
  ['ruby', '{"b":1,"a":2}', '{"b":1,"a":2}', ['key-order-insertion']],
  ['ruby', '{"a":1.0}', '{"a":1.0}', ['integral-float-fraction']],
  ['ruby', '{"a":1e21,"b":1e-7}', '{"a":1.0e+21,"b":1.0e-07}', ['number-format']],
  ['ruby', '{"a":12345678901234567890}', '{"a":12345678901234567890}', ['exact-big-integer']],
  ['ruby', '{"a":-0.0}', '{"a":-0.0}', ['negative-zero']],
  ['ruby', '{"s":"\\ud800"}', null, []],
  ['ruby', '{"a":1e400}', null, []],
  ['ruby', '['.repeat(101) + ']'.repeat(101), null, []],
  [
    'ruby-sorted',
    '{"b":1,"🚀":2,"\ufffd":3}',
    '{"b":1,"\ufffd":3,"🚀":2}',
    ['key-order-code-point'],
  ],
  // PHP json_encode.
  ['php', '{"u":"a/b"}', '{"u":"a\\/b"}', ['escapes-slash']],
  ['php', '{"s":"é"}', '{"s":"\\u00e9"}', ['escapes-non-ascii']],
  ['php', '{"a":1.0,"b":1e21,"c":1e-5}', '{"a":1,"b":1.0e+21,"c":1.0e-5}', ['number-format']],
  ['php', '{"a":-0.0}', '{"a":-0}', ['negative-zero']],
  ['php', '{"a":9223372036854775808}', '{"a":9.223372036854776e+18}', ['number-format']],
  [
    'php',
    '{"\ufffd":1,"🚀":2}',
    '{"\\ufffd":1,"\\ud83d\\ude80":2}',
    ['key-order-code-point', 'escapes-non-ascii'],
  ],
  ['php', '['.repeat(512) + ']'.repeat(512), null, []],
  [
    'php-assoc',
    '{"a":{},"b":{"1":"y","0":"x"}}',
    '{"a":[],"b":["x","y"]}',
    ['empty-object-as-array', 'object-as-list'],
  ],
  ['php-unsorted', '{"b":1,"a":2}', '{"b":1,"a":2}', ['key-order-insertion']],
  ['php-unescaped', '{"s":"é/\u2028"}', '{"s":"é/\\u2028"}', ['escapes-line-separators']],
  // Swift JSONSerialization.
  ['swift', '{"t":true,"f":false}', '{"f":0,"t":1}', ['bool-as-number']],
  ['swift', '{"u":"a/b"}', '{"u":"a\\/b"}', ['escapes-slash']],
  ['swift-bool', '{"t":true,"u":"/"}', '{"t":true,"u":"\\/"}', ['escapes-slash']],
  ['swift-unescaped-slashes', '{"t":true,"u":"/"}', '{"t":true,"u":"/"}', []],
  // Every SDK but TS: null arguments are absent arguments.
  ...VARIANTS.map((v): Row => [v.id, 'null', '{}', ['null-as-absent']]),
];

describe('every trap of every language', () => {
  it.each(ROWS.map((row) => [`${row[0]}: ${row[1].slice(0, 60)}`, ...row] as const))(
    '%s',
    (_label, id, json, text, traps) => {
      const v = variant(id);
      expect(v, id).toBeDefined();
      const r = render(v!, parseJson(json).ast);
      expect(r.text).toBe(text);
      expect(r.traps.map((t) => t.trap).sort()).toEqual([...traps].sort());
      if (text === null) {
        expect(r.argsHash).toBe('000000000000');
        expect(r.failure).toBeTruthy();
      }
    },
  );

  it('names every trap in the catalogue at least once', () => {
    const named = new Set(ROWS.flatMap((row) => row[3]));
    // Only an SDK model (Kotlin's UTF-8 encoding) produces this one: test/canonical/sdk-vectors.
    const sdkOnly = new Set<string>(['lone-surrogate-question-mark']);
    expect(
      [...Object.keys(TRAPS)].filter((t) => !named.has(t as TrapId) && !sdkOnly.has(t)),
    ).toEqual([]);
  });

  it('covers every variant', () => {
    const covered = new Set(ROWS.map((row) => row[0]));
    expect(VARIANTS.filter((v) => !covered.has(v.id)).map((v) => v.id)).toEqual([]);
  });

  it('gives each trap hit a readable example', () => {
    const r = render(variant('python')!, parseJson('{"s":"é","n":1.0}').ast);
    // In the order they fired: "n" sorts before "s".
    expect(r.traps).toEqual([
      { trap: 'integral-float-fraction', example: '1.0 → 1.0 (canonical: 1)' },
      { trap: 'escapes-non-ascii', example: 'é → \\u00e9' },
    ]);
  });
});
