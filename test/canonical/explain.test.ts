/**
 * explainHash — which encoder reproduces a hash some SDK sent — and the character diff the UI
 * uses to highlight where a language's text parts from the canonical one.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  diffText,
  explainHash,
  parseJson,
  render,
  VARIANTS,
  type DiffPart,
} from '../../src/canonical/index.js';

const INPUTS = [
  '{"query":"café","limit":1.0,"filters":{"b":true,"a":"x<y/z"}}',
  '{"\ufffd":1,"🚀":[1e21,-0.0,12345678901234567890]}',
  '{"s":"\\b\\u007f\\u2028","t":false}',
];

describe('explainHash', () => {
  it('names the variant that produced a hash, for every variant that differs from canonical', () => {
    for (const json of INPUTS) {
      const ast = parseJson(json).ast;
      for (const v of VARIANTS) {
        const r = render(v, ast);
        const explanation = explainHash(json, r.argsHash);
        if (explanation.correct) continue; // this variant agrees with RFC 8785 on this input
        expect(
          explanation.matches.map((m) => m.id),
          `${v.id} on ${json}`,
        ).toContain(v.id);
        expect(explanation.summary).toMatch(/^this is what /);
      }
    }
  });

  it('says which trap, in words', () => {
    const python = render(
      VARIANTS.find((v) => v.id === 'python')!,
      parseJson('{"s":"café"}').ast,
    );
    expect(explainHash('{"s":"café"}', python.argsHash).summary).toBe(
      "this is what Python json.dumps(args, sort_keys=True, separators=(',', ':')) with ensure_ascii=True (the default) gives: it writes every non-ASCII character as a \\uXXXX escape; RFC 8785 writes it as UTF-8 (é → \\u00e9)",
    );
  });

  it('recognises the canonical hash, at any length from 4 to 64 hex digits', () => {
    const canonical = '{"a":1}';
    const full = createHash('sha256').update(canonical).digest('hex');
    for (const hash of [full, full.slice(0, 12), full.slice(0, 4)]) {
      const e = explainHash('{"a": 1.0}', hash);
      expect(e.correct).toBe(true);
      expect(e.summary).toMatch(/is the canonical hash/);
    }
  });

  it('explains 000000000000: who cannot hash this input', () => {
    const deep = '{"a":' + '['.repeat(100) + ']'.repeat(100) + '}';
    const e = explainHash(deep, '000000000000');
    expect(e.correct).toBe(false);
    expect(e.matches.map((m) => m.id)).toEqual(
      expect.arrayContaining(['ruby', 'ruby-sorted', 'dotnet']),
    );
    expect(e.summary).toMatch(/could not hash.*Ruby/);
    // Issue 11: the TypeScript SDK hashes a lone surrogate (as \ud800); Ruby's parser cannot.
    const lone = explainHash('{"s":"\\ud800"}', '000000000000');
    expect(lone.correct).toBe(false);
    expect(lone.matches.slice(0, 3).map((m) => m.id)).toEqual([
      'sdk:dotnet',
      'sdk:ruby',
      'sdk:php',
    ]);
    expect(lone.summary).toMatch(/could not hash.*Ruby mcpulse 0\.1\.0.*JSON\.parse refuses/);
  });

  it('recognises the usual TypeScript mistakes: unsorted keys, and absent arguments', () => {
    const unsorted = createHash('sha256').update('{"b":1,"a":2}').digest('hex').slice(0, 12);
    expect(explainHash('{"b":1,"a":2}', unsorted).matches.map((m) => m.id)).toContain(
      'ts-unsorted',
    );
    expect(explainHash('{"b":1}', '44136fa355b3').matches.map((m) => m.id)).toContain('absent');
    expect(explainHash('null', '44136fa355b3').matches.map((m) => m.id)).toContain('python');
  });

  it('says so when nothing reproduces the hash', () => {
    const e = explainHash('{"a":1}', 'deadbeef0000');
    expect(e.matches).toEqual([]);
    expect(e.summary).toBe(
      'no modelled encoder gives deadbeef0000; the canonical hash is 015abd7f5cc5 ({"a":1})',
    );
  });
});

/** The first text (`equal` + `delete`) and the second (`equal` + `insert`) back from the parts. */
function sides(parts: DiffPart[]): [string, string] {
  return [
    parts
      .filter((p) => p.op !== 'insert')
      .map((p) => p.text)
      .join(''),
    parts
      .filter((p) => p.op !== 'delete')
      .map((p) => p.text)
      .join(''),
  ];
}

describe('diffText', () => {
  it('marks exactly the characters that differ', () => {
    expect(diffText('{"s":"café","n":1}', '{"s":"caf\\u00e9","n":1.0}')).toEqual([
      { op: 'equal', text: '{"s":"caf' },
      { op: 'delete', text: 'é' },
      { op: 'insert', text: '\\u00e9' },
      { op: 'equal', text: '","n":1' },
      { op: 'insert', text: '.0' },
      { op: 'equal', text: '}' },
    ]);
  });

  it('never splits an emoji', () => {
    const parts = diffText('"🚀"', '"😀"');
    expect(parts).toEqual([
      { op: 'equal', text: '"' },
      { op: 'delete', text: '🚀' },
      { op: 'insert', text: '😀' },
      { op: 'equal', text: '"' },
    ]);
  });

  it('reconstructs both texts, and is minimal on small edits', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 60 }),
        fc.string({ unit: 'grapheme', maxLength: 60 }),
        (a, b) => {
          expect(sides(diffText(a, b))).toEqual([a, b]);
        },
      ),
      { numRuns: 2000, seed: 21 },
    );
    const parts = diffText('abcdef', 'abXdef');
    expect(parts.filter((p) => p.op !== 'equal')).toEqual([
      { op: 'delete', text: 'c' },
      { op: 'insert', text: 'X' },
    ]);
    expect(diffText('same', 'same')).toEqual([{ op: 'equal', text: 'same' }]);
    expect(diffText('', '')).toEqual([]);
  });

  it('falls back to one replacement past the edit budget on large texts (bounded work)', () => {
    const a = 'x'.repeat(20_000) + 'a'.repeat(5000);
    const b = 'x'.repeat(20_000) + 'b'.repeat(5000);
    expect(sides(diffText(a, b, 100))).toEqual([a, b]);
  });
});
