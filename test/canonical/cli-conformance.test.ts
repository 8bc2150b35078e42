/**
 * `mcpulse-devtools conformance`: the shared fixture file, a broken one, and JSONL graded from
 * another SDK — modelled, and from a real Python port.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseJson, render, variant } from '../../src/canonical/node.js';
import { ROOT, run } from './cli-helpers.js';
import { FIXTURE_TEXT } from './corpus.js';
import { tempDir } from '../helpers/temp-dir.js';

const { dir: tmp, remove } = tempDir('mcpulse-conformance-');
afterAll(remove);

describe('conformance', () => {
  it('passes the shared fixture file, case by case', async () => {
    const { code, stdout } = await run(['conformance', path.join(ROOT, 'fixtures/canonical.json')]);
    expect(code).toBe(0);
    expect(stdout).toContain('ok    keys sort by utf-16 code units\n');
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('23 passed, 0 failed');
  });

  it('fails a fixture file with a wrong hash, and says which encoder wrote it', async () => {
    const file = JSON.parse(FIXTURE_TEXT) as {
      fixtures: { name: string; input: unknown; args_hash: string }[];
    };
    const python = variant('python')!;
    const broken = file.fixtures.find((f) => f.name === 'non-ascii is never escaped')!;
    broken.args_hash = render(python, parseJson(JSON.stringify(broken.input)).ast).argsHash;
    const target = path.join(tmp, 'python-fixtures.json');
    writeFileSync(target, JSON.stringify(file));
    const { code, stdout } = await run(['conformance', target]);
    expect(code).toBe(1);
    expect(stdout).toContain('FAIL  non-ascii is never escaped');
    expect(stdout).toContain('this is what Python json.dumps');
    expect(stdout).toContain('22 passed, 1 failed');
  });

  it('issue 11: the TypeScript SDK’s lone-surrogate hash passes; Go’s U+FFFD is blamed on Go, not Python', async () => {
    const input_json = '{"s":"a\\ud800b"}';
    const target = path.join(tmp, 'lone-surrogate.jsonl');
    writeFileSync(
      target,
      [
        JSON.stringify({ name: 'ts', input_json, args_hash: '8d0d9d697f74' }),
        JSON.stringify({ name: 'go', input_json, args_hash: '831e2ffe20d5' }),
        JSON.stringify({ name: 'kotlin', input_json, args_hash: 'ada24f3239dc' }),
      ].join('\n') + '\n',
    );
    const { code, stdout } = await run(['conformance', target]);
    expect(code).toBe(1);
    expect(stdout).toContain('ok    line 1 (ts)');
    expect(stdout).toMatch(/FAIL {2}line 2 \(go\)\n.*\n {6}this is what Go mcpulse-go/);
    expect(stdout).toMatch(
      /FAIL {2}line 3 \(kotlin\)\n.*\n {6}this is what Kotlin mcpulse-kotlin 0\.1\.0/,
    );
    expect(stdout).not.toMatch(/Python/);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 2 failed');
  });

  it('grades another SDK’s {input,args_hash} JSONL and names the traps behind the mismatches', async () => {
    const inputs = ['{"s":"café"}', '{"b":1,"a":2}', '{"n":1.0}', '{"x":"a<b"}', '{"t":true}'];
    const ruby = variant('ruby')!;
    const lines = inputs.map((json, i) =>
      JSON.stringify({
        name: `case ${i}`,
        input_json: json,
        args_hash: render(ruby, parseJson(json).ast).argsHash,
      }),
    );
    const target = path.join(tmp, 'ruby-pairs.jsonl');
    writeFileSync(target, lines.join('\n') + '\nnot json\n');
    const { code, stdout } = await run(['conformance', target]);
    expect(code).toBe(1);
    expect(stdout).toContain('ok    line 1 (case 0)');
    expect(stdout).toContain('FAIL  line 2 (case 1)');
    expect(stdout).toMatch(
      /this is what Ruby JSON\.generate\(JSON\.parse\(args\)\) \(keys in insertion order\) gives: it keeps keys in the order they arrived/,
    );
    expect(stdout).toContain('FAIL  line 6\n      not JSON');
    expect(stdout).toContain('1× key-order-insertion');
    expect(stdout).toContain('1× integral-float-fraction');
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('3 passed, 3 failed');

    const json = await run(['conformance', '--json', target]);
    const results = json.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(results.at(-1)).toEqual({ passed: 3, failed: 3 });
    expect(results[1]).toMatchObject({
      name: 'line 2 (case 1)',
      ok: false,
      expected: { args_hash: expect.any(String) },
    });
  });

  it('grades hashes a real Python port produced', async () => {
    const python = spawnSync('python3', ['--version']);
    if (python.error) {
      if (process.env.CI) throw new Error('python3 missing: CI must install it');
      console.warn('skipped: python3 not found');
      return;
    }
    const script = [
      'import hashlib, json, sys',
      'for line in sys.stdin:',
      '    args = json.loads(line)',
      '    text = json.dumps(args, sort_keys=True, separators=(",", ":"))',
      '    print(json.dumps({"input_json": line.strip(), "args_hash": hashlib.sha256(text.encode()).hexdigest()[:12]}))',
    ].join('\n');
    const inputs = [
      '{"query":"revenue","limit":25}',
      '{"city":"Zürich"}',
      '{"ratio":2.0}',
      '{"\\ufffd":1,"🚀":2}',
    ];
    const produced = spawnSync('python3', ['-c', script], {
      input: inputs.join('\n') + '\n',
      encoding: 'utf8',
    });
    const target = path.join(tmp, 'python-port.jsonl');
    writeFileSync(target, produced.stdout);
    const { code, stdout } = await run(['conformance', target]);
    expect(code).toBe(1);
    expect(stdout).toContain('ok    line 1');
    expect(stdout).toMatch(/FAIL {2}line 2\n.*\n {6}this is what Python json\.dumps.*ü → \\u00fc/);
    expect(stdout).toContain('integral-float-fraction');
    expect(stdout).toContain('key-order-code-point');
  });

  it('refuses a missing file or no file', async () => {
    expect((await run(['conformance'])).code).toBe(2);
    const missing = await run(['conformance', path.join(tmp, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read/);
    expect((await run(['conformance', '--help'])).stdout).toMatch(
      /^usage: mcpulse-devtools conformance FILE/,
    );
  });
});
