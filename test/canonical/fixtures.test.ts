/**
 * The 23 shared fixtures every MCPulse SDK ships, our own vectors beyond them, and a pin on the
 * shared file so nobody edits it by accident.
 */
import { createHash } from 'node:crypto';
import erdtman from 'canonicalize';
import jsonCanon from 'json-canon';
import { describe, expect, it } from 'vitest';
import { analyze, argsHash, canonicalize, hashText } from '../../src/canonical/node.js';
import { LANGUAGES } from '../../src/canonical/index.js';
import { FIXTURE_TEXT, VECTORS } from './corpus.js';

interface Fixture {
  name: string;
  input: unknown;
  canonical: string;
  args_hash: string;
}
const file = JSON.parse(FIXTURE_TEXT) as {
  wire_version: number;
  algorithm: string;
  fixtures: Fixture[];
};

describe('fixtures/canonical.json (shared, byte-identical)', () => {
  it('is the file every SDK ships, unedited', () => {
    // Pinned: a change here means someone edited the shared fixture. Copy it again from
    // ../shared/fixtures/canonical.json instead.
    expect(createHash('sha256').update(FIXTURE_TEXT).digest('hex')).toBe(
      '8bf04e56404eeb8c860483d9a7cde1eca1262d63975ed5a65c3890ece5040fa8',
    );
    expect(file.wire_version).toBe(1);
    expect(file.algorithm).toBe('sha256/rfc8785/hex12');
    expect(file.fixtures).toHaveLength(23);
  });

  it.each(file.fixtures.map((f) => [f.name, f] as const))('%s', (_name, fixture) => {
    expect(canonicalize(fixture.input)).toBe(fixture.canonical);
    expect(argsHash(fixture.input)).toBe(fixture.args_hash);
    expect(hashText(fixture.canonical)).toBe(fixture.args_hash);
  });

  it('absent and null arguments hash as wire-format §3 says', () => {
    expect(argsHash(undefined)).toBe('44136fa355b3');
    expect(argsHash(null)).toBe('74234e98afe7');
    expect(argsHash({ a: Number.NaN })).toBe('000000000000');
  });
});

describe('fixtures/canonical-vectors.json (ours)', () => {
  it('has vectors for every hard case', () => {
    expect(VECTORS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(VECTORS.map((v) => v.name)).size).toBe(VECTORS.length);
  });

  it.each(VECTORS.map((v) => [v.name, v] as const))('%s', (_name, vector) => {
    const analysis = analyze(vector.json);
    expect(analysis.canonical).toBe(vector.canonical);
    expect(analysis.argsHash).toBe(vector.args_hash);
    for (const language of LANGUAGES)
      expect([language, analysis.languages[language].text]).toEqual([
        language,
        vector.languages[language],
      ]);
    if (vector.canonical !== null) {
      expect(hashText(vector.canonical)).toBe(vector.args_hash);
      // Two independent RFC 8785 implementations agree on what is hashable. A lone surrogate is
      // the exception (issue 11): both refuse it, as strict I-JSON does, while the TypeScript
      // SDK — whose hashes these are — escapes it the way JSON.stringify does.
      const value = JSON.parse(vector.json) as unknown;
      if (analysis.diagnostics.some((d) => d.code === 'lone-surrogate')) {
        expect(() => jsonCanon(value)).toThrow();
        expect(() => erdtman(value)).toThrow();
        expect(vector.canonical).toBe(JSON.stringify(value));
      } else {
        expect(jsonCanon(value)).toBe(vector.canonical);
        expect(erdtman(value)).toBe(vector.canonical);
      }
    } else {
      expect(vector.args_hash).toBe('000000000000');
    }
  });
});
