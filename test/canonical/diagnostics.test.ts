/**
 * Every diagnostic code: when it fires, where it points, and what it says each SDK does.
 */
import { describe, expect, it } from 'vitest';
import {
  analyze,
  DIAGNOSTIC_CODES,
  type Diagnostic,
  type DiagnosticCode,
} from '../../src/canonical/index.js';

function diagnostics(text: string): Diagnostic[] {
  return analyze(text).diagnostics;
}

/** Arguments `{"a": inner}`: an object at the top, so only `inner` is diagnosed. */
const arg = (inner: string) => `{"a": ${inner}}`;

function only(text: string, code: DiagnosticCode): Diagnostic {
  const found = diagnostics(text).filter((d) => d.code === code);
  expect(found, `${code} in ${text}`).toHaveLength(1);
  return found[0]!;
}

/** The effect a diagnostic lists for one SDK. */
function effect(d: Diagnostic, sdk: string): string | undefined {
  return d.affects.find((a) => a.sdk === sdk)?.effect;
}

describe('diagnostics', () => {
  it('none for a plain call', () => {
    expect(diagnostics('{"query": "revenue", "limit": 25, "tags": ["a"], "ok": true}')).toEqual([]);
  });

  it('duplicate-key: where, and which value wins', () => {
    const d = only('{\n  "a": 1,\n  "a": 2\n}', 'duplicate-key');
    expect(d).toMatchObject({ severity: 'warning', path: '/a', line: 3, column: 3, offset: 14 });
    expect(effect(d, 'ts')).toBe('JSON.parse keeps the last value');
    expect(effect(d, 'ruby')).toMatch(/last value, written at the first/);
    expect(effect(d, 'python')).toBe('keeps the last value');
    expect(analyze('{"a": 1, "a": 2}').canonical).toBe('{"a":2}');
  });

  it('unsafe-integer: the value every SDK will actually hash', () => {
    const d = only('{"id": 12345678901234567890}', 'unsafe-integer');
    expect(d.message).toContain('12345678901234567000');
    expect(effect(d, 'ts')).toBe('writes 12345678901234567000');
    expect(effect(d, 'go')).toBe('writes 12345678901234567000');
    expect(effect(d, 'python')).toBe('writes 12345678901234567890 — hash differs');
    expect(effect(d, 'php')).toBe('writes 1.2345678901234567e+19 — hash differs');
    expect(effect(d, 'dotnet')).toBe('writes 1.2345678901234567E+19 — hash differs');
    expect(d.affects).toHaveLength(9);
    expect(diagnostics('{"a": [9007199254740991, -9007199254740991]}')).toEqual([]);
  });

  it('number-overflow: RFC 8785 cannot hash it, Python writes Infinity', () => {
    const d = only('{"x": 1e400}', 'number-overflow');
    expect(d.severity).toBe('error');
    expect(effect(d, 'ts')).toMatch(/000000000000/);
    expect(effect(d, 'python')).toBe('writes Infinity — hash differs');
    expect(effect(d, 'go')).toMatch(/cannot parse or encode it/);
    expect(analyze('{"x": 1e400}').argsHash).toBe('000000000000');
  });

  it('number-underflow: reads as 0', () => {
    const d = only(arg('1e-400'), 'number-underflow');
    expect(effect(d, 'python')).toBe('writes 0.0 — hash differs');
    expect(effect(d, 'ts')).toBe('writes 0');
    expect(diagnostics(arg('0e5')).map((x) => x.code)).toEqual(['number-form']);
  });

  it('negative-zero: canonical 0, some runtimes keep the sign', () => {
    const d = only('{"a": -0.0}', 'negative-zero');
    expect(effect(d, 'go')).toBe('writes -0 — hash differs');
    expect(effect(d, 'python')).toBe('writes -0.0 — hash differs');
    expect(effect(only(arg('-0'), 'negative-zero'), 'python')).toBe('writes 0');
  });

  it('number-form: written differently from the canonical form, and why', () => {
    expect(only(arg('1.0'), 'number-form').message).toBe(
      '1.0 is written 1 in the canonical form (zeros after the decimal point)',
    );
    expect(only(arg('1E2'), 'number-form').message).toMatch(/written 100 .*exponent/);
    expect(only(arg('0.1000000000000000055511151231257827'), 'number-form').message).toMatch(
      /more digits than a double holds/,
    );
    expect(effect(only(arg('1.0'), 'number-form'), 'ruby')).toBe('writes 1.0 — hash differs');
    expect(diagnostics(arg('[1, 2.5, 1e-7, 1e+21]'))).toEqual([]);
  });

  it('lone-surrogate: in values and keys, with what each SDK does', () => {
    const d = only('{"s": "\\ud800"}', 'lone-surrogate');
    expect(d).toMatchObject({ severity: 'error', path: '/s' });
    // Issue 11: the effects are the SDKs' own (TS escapes it, Ruby's JSON.parse refuses it).
    expect(effect(d, 'ts')).toMatch(/\\udxxx escape/);
    expect(effect(d, 'go')).toMatch(/U\+FFFD/);
    expect(effect(d, 'java')).toMatch(/as \?/);
    expect(effect(d, 'ruby')).toMatch(/JSON\.parse refuses/);
    expect(only('{"\\udc00": 1}', 'lone-surrogate').path).toBe('/\udc00');
  });

  it('nesting-depth: which SDKs stop, and when it is an error', () => {
    // The object at the top is one level; the arrays inside it the rest.
    const nested = (n: number) => arg('['.repeat(n - 1) + ']'.repeat(n - 1));
    expect(diagnostics(nested(64))).toEqual([]);
    const shallow = only(nested(65), 'nesting-depth');
    expect(shallow.severity).toBe('warning');
    expect(shallow.affects.map((a) => a.sdk)).toEqual(['dotnet']);
    const deep = only(nested(1001), 'nesting-depth');
    expect(deep.severity).toBe('error');
    expect(deep.affects.map((a) => a.sdk).sort()).toEqual([
      'dotnet',
      'java',
      'php',
      'python',
      'ruby',
      'rust',
    ]);
    const abyss = only(nested(100_000), 'nesting-depth');
    expect(abyss.message).toMatch(/nested 100000 deep/);
    expect(effect(abyss, 'ts')).toMatch(/stack runs out/);
    expect(effect(deep, 'ts')).toBeUndefined();
  });

  it('top-level-null: TS hashes null, the others {}', () => {
    const d = only('null', 'top-level-null');
    expect(effect(d, 'ts')).toMatch(/74234e98afe7/);
    expect(effect(d, 'rust')).toMatch(/44136fa355b3/);
    expect(analyze('null').argsHash).toBe('74234e98afe7');
    expect(analyze('null').languages.go.argsHash).toBe('44136fa355b3');
  });

  it('top-level-not-object: arrays, strings, numbers, booleans', () => {
    for (const text of ['[1]', '"s"', '42', 'true'])
      expect(only(text, 'top-level-not-object').path).toBe('');
    expect(only('[1]', 'top-level-not-object').message).toMatch(/^arguments are an array/);
  });

  it('string-form: escapes the canonical form writes differently', () => {
    const d = only('{"k": "caf\\u00e9 \\/"}', 'string-form');
    expect(d).toMatchObject({ severity: 'info', affects: [] });
    expect(d.message).toContain('"café /"');
    expect(diagnostics('{"k": "line\\nbreak \\"q\\""}')).toEqual([]);
  });

  it('points into nested structures with JSON Pointer paths', () => {
    const d = only('{"a/b": [{"c~d": 1.0}]}', 'number-form');
    expect(d.path).toBe('/a~1b/0/c~0d');
  });

  it('lists at most 20 of one code and counts the rest', () => {
    const list = diagnostics(arg('[' + Array.from({ length: 50 }, () => '1.0').join(',') + ']'));
    expect(list).toHaveLength(20);
    expect(list.at(-1)!.more).toBe(30);
  });

  it('every code is exercised above', () => {
    const seen = new Set(
      [
        '{"a":1,"a":2}',
        '[12345678901234567890]',
        '[1e400]',
        '[1e-400]',
        '[-0]',
        '[1.0]',
        '["\\ud800"]',
        '['.repeat(70) + ']'.repeat(70),
        'null',
        '[]',
        '["\\u0061"]',
        '{"a":{}}',
      ].flatMap((t) => diagnostics(t).map((d) => d.code)),
    );
    expect([...seen].sort()).toEqual([...DIAGNOSTIC_CODES].sort());
  });
});
