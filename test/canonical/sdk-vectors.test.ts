/**
 * The per-SDK hash models (src/canonical/sdks) held to what each public SDK's own tests pin
 * (fixtures/sdk-vectors.json), to the shared fixtures every SDK runs, and to the behaviours
 * issue 11 found with the real SDKs: the TypeScript SDK's lone-surrogate escape, PHP's `{}`
 * becoming `[]`, Ruby's parser refusing lone surrogates, Go replacing them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  analyze,
  explainHash,
  hashText,
  nodeSha256Hex,
  parseJson,
  renderSdks,
  SDK_IDS,
  SDK_MODELS,
  type Sdk,
} from '../../src/canonical/node.js';
import { FIXTURE_TEXT } from './corpus.js';

interface SdkVector {
  sdk: Sdk;
  package: string;
  version: string;
  source: { repo: string; path: string; commit: string };
  name: string;
  input_json: string | null;
  canonical: string;
  args_hash: string;
  entry?: string;
}

const vectors = (
  JSON.parse(readFileSync(new URL('../../fixtures/sdk-vectors.json', import.meta.url), 'utf8')) as {
    vectors: SdkVector[];
  }
).vectors;

const RAW_ENTRIES = new Set(['ArgsHashRaw', 'Hashing::argsHashRaw']);

describe('fixtures/sdk-vectors.json: what each SDK\u2019s own tests pin', () => {
  it('names its source for every line, and each hash is its canonical text\u2019s', () => {
    expect(vectors.length).toBeGreaterThan(50);
    for (const v of vectors) {
      expect(v.source.repo).toMatch(/^getmcpulse\/mcpulse-/);
      expect(v.source.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(hashText(v.canonical)).toBe(v.args_hash);
      // The model for this SDK is the version the vector was read from.
      const model = SDK_MODELS.find((m) => m.id === v.sdk)!;
      expect(model.source?.repo).toBe(v.source.repo);
    }
    expect(new Set(vectors.map((v) => v.sdk))).toEqual(
      new Set(['ts', 'go', 'ruby', 'php', 'dotnet', 'java']),
    );
  });

  it.each(vectors.map((v) => [`${v.sdk}: ${v.name}`, v] as const))('%s', (_name, v) => {
    if (v.input_json === null) {
      // Absent arguments: every SDK hashes {} — no parser is involved, so PHP's [] never comes up.
      expect(v.canonical).toBe('{}');
      expect(v.args_hash).toBe(analyze('{}', nodeSha256Hex).sdks.ts.argsHash);
      return;
    }
    const analysis = analyze(v.input_json, nodeSha256Hex);
    const rendering = analysis.sdks[v.sdk];
    // A raw-bytes entry point is its own mode where the SDK models one (PHP's `raw`); Go's
    // ArgsHashRaw is the only way Go hashes a call, so its one model is that entry point.
    const raw = v.entry !== undefined && RAW_ENTRIES.has(v.entry);
    const got =
      raw && rendering.otherModes
        ? rendering.otherModes.find((m) => m.mode.id === 'raw')!
        : rendering;
    expect(got.text).toBe(v.canonical);
    expect(got.argsHash).toBe(v.args_hash);
  });
});

describe('PHP, one model per decoding mode', () => {
  const php = vectors.filter((v) => v.sdk === 'php' && v.input_json !== null);
  const isRaw = (v: SdkVector) => v.entry !== undefined && RAW_ENTRIES.has(v.entry);

  it('names both modes and renders both for every input', () => {
    const analysis = analyze('{}', nodeSha256Hex);
    expect(analysis.sdks.php.mode?.id).toBe('assoc');
    expect(analysis.sdks.php.text).toBe('[]');
    expect(analysis.sdks.php.otherModes?.map((m) => [m.mode.id, m.text])).toEqual([['raw', '{}']]);
  });

  it('assoc (MCPulse::record with json_decode(…, true)) is right on every vector read in that mode', () => {
    const assoc = php.filter((v) => !isRaw(v));
    expect(assoc.length).toBeGreaterThan(10);
    const wrong = assoc.filter(
      (v) => analyze(v.input_json!, nodeSha256Hex).sdks.php.argsHash !== v.args_hash,
    );
    expect(wrong.map((v) => v.name)).toEqual([]);
  });

  it('raw (Hashing::argsHashRaw) is right on every vector read in that mode', () => {
    const raw = php.filter(isRaw);
    expect(raw.length).toBeGreaterThanOrEqual(2);
    const wrong = raw.filter(
      (v) =>
        analyze(v.input_json!, nodeSha256Hex).sdks.php.otherModes![0]!.argsHash !== v.args_hash,
    );
    expect(wrong.map((v) => v.name)).toEqual([]);
  });
});

describe('refused inputs are "not sent" where the parser refuses the request', () => {
  const nested = (depth: number) => '['.repeat(depth - 1) + '{}' + ']'.repeat(depth - 1);

  it('Ruby at nesting 101: not sent (JSON.parse max_nesting 100), Go still hashes', () => {
    const a = analyze(nested(101), nodeSha256Hex);
    expect(a.sdks.ruby.sent).toBe(false);
    expect(a.sdks.ruby.failure).toMatch(/^not sent: its parser stops at depth 100/);
    expect(a.sdks.go.sent).toBe(true);
    expect(a.sdks.go.text).not.toBeNull();
    const depth = a.diagnostics.find((d) => d.code === 'nesting-depth')!;
    const ruby = depth.affects.find((e) => e.sdk === 'ruby')!;
    expect(ruby.effect).toContain('not sent');
    expect(ruby.effect).not.toContain('000000000000');
  });

  it('Go past its own writer limit (1000) sends 000000000000, and says so', () => {
    const a = analyze(nested(1002), nodeSha256Hex);
    expect(a.sdks.go.sent).toBe(true);
    expect(a.sdks.go.argsHash).toBe('000000000000');
    const depth = a.diagnostics.find((d) => d.code === 'nesting-depth')!;
    expect(depth.affects.find((e) => e.sdk === 'go')!.effect).toContain('sends 000000000000');
  });
});

describe('the SDK models on the shared fixtures (every SDK runs canonical.json)', () => {
  const fixtures = (
    JSON.parse(FIXTURE_TEXT) as { fixtures: { name: string; input: unknown; canonical: string }[] }
  ).fixtures;

  it.each(fixtures.map((f) => [f.name, f] as const))('%s', (_name, fixture) => {
    const analysis = analyze(JSON.stringify(fixture.input), nodeSha256Hex);
    const phpArray = analysis.diagnostics.some((d) => d.code === 'php-array');
    for (const id of SDK_IDS) {
      // PHP's record() path writes {} as [] — its own suite runs the fixtures decoded to
      // objects, the argsHashRaw path, which is the TypeScript SDK's text.
      if (id === 'php' && phpArray) {
        expect(analysis.sdks.php.text).not.toBe(fixture.canonical);
        continue;
      }
      expect([id, analysis.sdks[id].text]).toEqual([id, fixture.canonical]);
    }
  });
});

describe('analyze’s shortcut: every SDK writes the canonical text unless a diagnostic says otherwise', () => {
  const texts = [
    ...vectors.flatMap((v) => (v.input_json === null ? [] : [v.input_json])),
    ...(JSON.parse(FIXTURE_TEXT) as { fixtures: { input: unknown }[] }).fixtures.map((f) =>
      JSON.stringify(f.input),
    ),
    ...(
      JSON.parse(
        readFileSync(new URL('../../fixtures/canonical-vectors.json', import.meta.url), 'utf8'),
      ) as { vectors: { json: string }[] }
    ).vectors.map((v) => v.json),
    '{"a":{"b":{}}}',
    '{"0":1,"1":2}',
    '[1e400]',
    'null',
    '{"__proto__":1,"a":[1.0,-0,1e21]}',
    '{"a":1,"a":2}',
  ];

  it.each(texts.map((t) => [t.length > 60 ? t.slice(0, 57) + '…' : t, t] as const))(
    '%s',
    (_name, text) => {
      const a = analyze(text, nodeSha256Hex);
      const models = renderSdks(parseJson(text).ast, nodeSha256Hex);
      for (const id of SDK_IDS.filter((s) => s !== 'ts')) {
        expect([id, a.sdks[id].text, a.sdks[id].argsHash]).toEqual([
          id,
          models[id].text,
          models[id].argsHash,
        ]);
      }
    },
  );
});

describe('what issue 11 found with the real SDKs', () => {
  it('{"s":"a\\ud800b"}: TS escapes it (8d0d9d697f74), Go replaces it, Kotlin writes ?, Ruby/PHP/.NET cannot hash', () => {
    const a = analyze('{"s":"a\\ud800b"}', nodeSha256Hex);
    // The TS SDK's test pins canonicalize({ s: "a\ud800b" }) === '{"s":"a\\ud800b"}' (TS source).
    expect(a.canonical).toBe('{"s":"a\\ud800b"}');
    expect(a.argsHash).toBe('8d0d9d697f74');
    expect(a.sdks.ts).toMatchObject({ text: '{"s":"a\\ud800b"}', argsHash: '8d0d9d697f74' });
    expect(a.sdks.go).toMatchObject({ text: '{"s":"a\ufffdb"}', argsHash: '831e2ffe20d5' });
    expect(a.sdks.java).toMatchObject({ text: '{"s":"a?b"}', argsHash: 'ada24f3239dc' });
    for (const id of ['ruby', 'php', 'dotnet'] as const) {
      expect(a.sdks[id].text).toBeNull();
      expect(a.sdks[id].argsHash).toBe('000000000000');
    }
    expect(a.sdks.ruby.failure).toMatch(/JSON\.parse refuses a lone high surrogate/);
    expect(a.sdks.ruby.sent).toBe(false);
    // The hand-rolled view is still there, separately: Python's json.dumps escapes it too.
    expect(a.languages.python.text).toBe(a.canonical);
  });

  // Issue 43, measured with Ruby's json 2.6.1: JSON.parse('{"\udc00":1}') succeeds (the key is
  // the bytes ED B0 80, not UTF-8); the SDK's writer raises on them and args_hash rescues it.
  it('{"\\udc00":1}: Ruby parses a lone low surrogate and sends 000000000000; a lone high one is never sent', () => {
    const low = analyze('{"\\udc00":1}', nodeSha256Hex);
    expect(low.sdks.ruby).toMatchObject({ text: null, argsHash: '000000000000', sent: true });
    expect(low.sdks.ruby.failure).toMatch(/lone low surrogate.*000000000000/);
    const lowValue = analyze('{"s":"x\\ude80y"}', nodeSha256Hex);
    expect(lowValue.sdks.ruby).toMatchObject({ argsHash: '000000000000', sent: true });
    // A lone high surrogate anywhere in the text stops the parser, whatever else it holds.
    const both = analyze('{"a":"\\udc00","b":"\\ud800"}', nodeSha256Hex);
    expect(both.sdks.ruby).toMatchObject({ text: null, sent: false });
    // A real pair is neither: it is hashed like every other SDK's.
    const pair = analyze('{"s":"\\ud83d\\ude80"}', nodeSha256Hex);
    expect(pair.sdks.ruby.argsHash).toBe(pair.sdks.ts.argsHash);
    // What the diagnostics say per string, beside the model.
    const lowEffect = low.diagnostics
      .find((d) => d.code === 'lone-surrogate')!
      .affects!.find((e) => e.sdk === 'ruby')!.effect;
    expect(lowEffect).toMatch(/^cannot hash, 000000000000/);
    const highEffect = analyze('{"s":"\\ud800"}', nodeSha256Hex)
      .diagnostics.find((d) => d.code === 'lone-surrogate')!
      .affects!.find((e) => e.sdk === 'ruby')!.effect;
    expect(highEffect).toMatch(/^not sent: JSON\.parse refuses a lone high surrogate/);
  });

  it('conformance no longer blames Python for the TypeScript SDK\u2019s hash, and names Go for its own', () => {
    const ts = explainHash('{"s":"a\\ud800b"}', '8d0d9d697f74', nodeSha256Hex);
    expect(ts.correct).toBe(true);
    expect(ts.summary).toMatch(/agrees with the TypeScript SDK/);
    const go = explainHash('{"s":"a\\ud800b"}', '831e2ffe20d5', nodeSha256Hex);
    expect(go.correct).toBe(false);
    expect(go.matches[0]!.id).toBe('sdk:go');
    expect(go.summary).toMatch(/^this is what Go mcpulse-go.* sends: it replaces a lone surrogate/);
  });

  it('PHP: {} hashed as [] through record(); nested and "0".."n-1" objects too', () => {
    const empty = analyze('{}', nodeSha256Hex);
    expect(empty.sdks.php.text).toBe('[]');
    expect(empty.sdks.php.traps.map((t) => t.trap)).toEqual(['empty-object-as-array']);
    expect(empty.sdks.ts.text).toBe('{}');
    const nested = analyze('{"filters":{},"ids":{"0":"a","1":"b"},"m":{"1":"b","0":"a"}}');
    expect(nested.sdks.php.text).toBe('{"filters":[],"ids":["a","b"],"m":{"0":"a","1":"b"}}');
    expect(nested.diagnostics.filter((d) => d.code === 'php-array').map((d) => d.path)).toEqual([
      '/filters',
      '/ids',
    ]);
    // Eleven keys "0".."10" in order are still a list (array_is_list judges the decoded order).
    const eleven = `{${Array.from({ length: 11 }, (_, i) => `"${i}":${i}`).join(',')}}`;
    expect(analyze(eleven).sdks.php.text).toBe(
      `[${Array.from({ length: 11 }, (_, i) => i).join(',')}]`,
    );
  });

  it('null arguments: TS hashes null, every other SDK {}', () => {
    const a = analyze('null', nodeSha256Hex);
    expect(a.sdks.ts.argsHash).toBe('74234e98afe7');
    for (const id of SDK_IDS.filter((s) => s !== 'ts'))
      expect(a.sdks[id].argsHash).toBe('44136fa355b3');
  });

  it('nesting: each SDK stops where its parser or its own limit does', () => {
    const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const at = (n: number) => analyze(nested(n)).sdks;
    expect(at(64).dotnet.text).not.toBeNull();
    expect(at(65).dotnet.text).toBeNull();
    expect(at(100).ruby.text).not.toBeNull();
    expect(at(101).ruby.text).toBeNull();
    expect(at(1000).java.text).not.toBeNull();
    expect(at(1001).java.text).toBeNull();
    expect(at(1001).go.text).not.toBeNull();
    expect(at(1002).go.text).toBeNull();
  });

  it('the hash command reports every SDK with its version, TypeScript first', () => {
    const a = analyze('{"a":1.0}', nodeSha256Hex);
    expect(Object.keys(a.sdks)).toEqual([...SDK_IDS]);
    expect(SDK_IDS[0]).toBe('ts');
    for (const m of SDK_MODELS) {
      expect(m.version).not.toBe('');
      expect(m.evidence === 'source').toBe(m.source !== undefined);
    }
    // Every published SDK writes 1.0 as 1: the hand-rolled "Ruby writes 1.0" trap is not theirs.
    for (const id of SDK_IDS) expect(a.sdks[id].text).toBe('{"a":1}');
    expect(a.languages.ruby.text).toBe('{"a":1.0}');
  });
});
