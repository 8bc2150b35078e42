/**
 * `mcpulse-devtools hash`: in-process through `main(argv, io)` for the many small cases, and
 * through real child processes for stdin, exit codes and 100,000 lines of --jsonl.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { argsHash, LANGUAGES } from '../../src/canonical/node.js';
import { ROOT, run, spawnCli } from './cli-helpers.js';
import { FIXTURE_TEXT } from './corpus.js';

describe('hash', () => {
  it('prints the canonical form, the hash, diagnostics and every language', async () => {
    const { code, stdout } = await run(['hash', '{"b": 1.0, "a": "café"}']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^canonical {2}\{"a":"café","b":1\}\nargs_hash {2}d54b12e4d04f\n/);
    expect(stdout).toContain('info    number-form at /b (line 1, column 7)');
    expect(stdout).toContain('python  17411340777a  differs');
    expect(stdout).toContain('{"a":"caf\\u00e9","b":1.0}');
    expect(stdout).toContain('go      d54b12e4d04f  same as canonical');
    expect(stdout).toContain(
      'swift   d54b12e4d04f  same as canonical  (modelled from documentation)',
    );
  });

  it('--json prints exactly the contract object', async () => {
    const { code, stdout } = await run([
      'hash',
      '--json',
      '{"query":"quarterly revenue","limit":25,"filters":{"region":"EMEA","active":true}}',
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as Record<string, unknown>;
    // Issue 11 added `sdks` (each MCPulse SDK's own hash); `languages` is the hand-rolled view.
    expect(Object.keys(report)).toEqual([
      'canonical',
      'args_hash',
      'diagnostics',
      'sdks',
      'languages',
    ]);
    expect(report.args_hash).toBe('52a4fe5fc814');
    expect(report.canonical).toBe(
      '{"filters":{"active":true,"region":"EMEA"},"limit":25,"query":"quarterly revenue"}',
    );
    const languages = report.languages as Record<
      string,
      { text: string | null; args_hash: string }
    >;
    expect(Object.keys(languages)).toEqual([...LANGUAGES]);
    for (const language of LANGUAGES)
      expect(Object.keys(languages[language]!)).toEqual(['text', 'args_hash']);
    expect(languages.ruby!.text).toBe(
      '{"query":"quarterly revenue","limit":25,"filters":{"region":"EMEA","active":true}}',
    );
    expect(stdout.endsWith('}\n')).toBe(true);
  });

  it('prints the SDKs first, then the hand-rolled encoders under "if you hash it yourself"', async () => {
    const { code, stdout } = await run(['hash', '{"n":1.0,"e":{}}']);
    expect(code).toBe(0);
    const sdks = stdout.indexOf('SDKs (what each MCPulse SDK sends, from its published code):');
    const yourself = stdout.indexOf('if you hash it yourself');
    expect(sdks).toBeGreaterThan(-1);
    expect(yourself).toBeGreaterThan(sdks);
    // Every SDK writes 1.0 as 1; only PHP's record() path differs here ({} → []).
    const sdkPart = stdout.slice(sdks, yourself);
    expect(sdkPart).toMatch(/ts {6}\w{12} {2}same as canonical {2}\[@mcpulse\/sdk 0\.1\.6\]/);
    expect(sdkPart).toMatch(/php {5}\w{12} {2}differs/);
    expect(sdkPart).toContain('{"e":[],"n":1}');
    expect(stdout.slice(yourself)).toContain('{"e":{},"n":1.0}'); // Ruby's JSON.generate
  });

  it('reads stdin when there is no argument, and reports failures as null text', async () => {
    const { code, stdout } = await run(['hash', '--json'], '{"s": "\\ud800"}\n');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      canonical: string | null;
      args_hash: string;
      diagnostics: { code: string }[];
      sdks: Record<
        string,
        { sdk: string; version: string; text: string | null; args_hash: string }
      >;
      languages: Record<string, { text: string | null; args_hash: string }>;
    };
    // Issue 11: the TypeScript SDK escapes a lone surrogate (it used to read "cannot hash").
    expect(report.canonical).toBe('{"s":"\\ud800"}');
    expect(report.args_hash).toBe('d06a70a1ca4d');
    expect(report.diagnostics.map((d) => d.code)).toEqual(['lone-surrogate']);
    expect(report.sdks.ts).toMatchObject({ sdk: '@mcpulse/sdk', version: '0.1.6' });
    expect(report.sdks.ts!.args_hash).toBe('d06a70a1ca4d');
    // Ruby's JSON.parse refuses the request itself: no call, so nothing is sent.
    expect(report.sdks.ruby).toMatchObject({ text: null, sent: false });
    expect(report.sdks.go).toMatchObject({ sent: true });
    expect(report.languages.ruby).toEqual({ text: null, args_hash: '000000000000' });
    expect(report.languages.python!.text).toBe('{"s":"\\ud800"}');
  });

  it('hash \'{"s":"a\\ud800b"}\' --json: the TypeScript SDK\'s 8d0d9d697f74 for ts, each SDK\'s own for the rest', async () => {
    const { code, stdout } = await run(['hash', '{"s":"a\\ud800b"}', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      sdks: Record<string, { text: string | null; args_hash: string }>;
    };
    expect(report.sdks.ts!.args_hash).toBe('8d0d9d697f74');
    expect(report.sdks.go!.args_hash).toBe('831e2ffe20d5');
    expect(report.sdks.java!.args_hash).toBe('ada24f3239dc');
    for (const id of ['ruby', 'php', 'dotnet'])
      expect(report.sdks[id]!.args_hash).toBe('000000000000');
    // Where the parser refuses (Ruby, PHP's host decode) nothing is sent; .NET and PHP's
    // argsHashRaw catch it and send 000000000000.
    const sdks = report.sdks as unknown as Record<
      string,
      {
        sent: boolean;
        mode?: string;
        other_modes?: { mode: string; args_hash: string; sent: boolean }[];
      }
    >;
    expect([sdks.ruby!.sent, sdks.php!.sent, sdks.dotnet!.sent]).toEqual([false, false, true]);
    expect(sdks.php!.mode).toBe('assoc');
    expect(sdks.php!.other_modes).toMatchObject([
      { mode: 'raw', args_hash: '000000000000', sent: true },
    ]);
  });

  it('says why a text is not JSON, and exits 1', async () => {
    const human = await run(['hash', "{'a': 1}"]);
    expect(human.code).toBe(1);
    expect(human.stderr).toBe(
      'mcpulse-devtools hash: not JSON: strings and keys take double quotes, not single at line 1, column 2\n',
    );
    const machine = await run(['hash', '--json', '[1,]']);
    expect(machine.code).toBe(1);
    expect(JSON.parse(machine.stdout)).toEqual({
      error: 'not JSON: trailing comma before ] at line 1, column 4',
    });
  });

  it('has --help, and refuses bad flags with exit 2', async () => {
    const help = await run(['hash', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: mcpulse-devtools hash \[JSON\]/);
    expect((await run(['hash', '--json', '--jsonl'])).code).toBe(2);
    expect((await run(['hash', '--nope', '{}'])).code).toBe(2);
    expect((await run(['hash', '--jsonl', '{}'])).code).toBe(2);
    const tty = await run(['hash']);
    expect(tty.code).toBe(2);
    expect(tty.stderr).toMatch(/give JSON as an argument or on stdin/);
  });

  it('--jsonl answers every line in order, errors included', async () => {
    const input = ['{"a":1}', 'nope', '', '  {"b": [1.0]}\r', 'null', '[1,2]'].join('\n');
    const { code, stdout } = await run(['hash', '--jsonl'], input);
    expect(code).toBe(0);
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { args_hash?: string; error?: string; canonical?: string });
    expect(lines).toHaveLength(6);
    expect(lines[0]!.args_hash).toBe('015abd7f5cc5');
    expect(lines[1]!.error).toMatch(/^not JSON: unexpected "n", expected a value/);
    expect(lines[2]).toEqual({ error: 'empty line' });
    expect(lines[3]!.canonical).toBe('{"b":[1]}');
    expect(lines[4]!.args_hash).toBe('74234e98afe7');
    expect(lines[5]!.canonical).toBe('[1,2]');
  });

  it('works as a real process: argument, stdin, and the 23 fixtures through --jsonl', () => {
    const byArgument = spawnCli(['hash', '--json', '{"b":2,"a":1}']);
    expect(byArgument.code).toBe(0);
    expect((JSON.parse(byArgument.stdout) as { canonical: string }).canonical).toBe(
      '{"a":1,"b":2}',
    );

    const fixtures = (
      JSON.parse(FIXTURE_TEXT) as { fixtures: { input: unknown; args_hash: string }[] }
    ).fixtures;
    const jsonl = spawnCli(
      ['hash', '--jsonl'],
      fixtures.map((f) => JSON.stringify(f.input)).join('\n') + '\n',
    );
    expect(jsonl.code).toBe(0);
    const hashes = jsonl.stdout
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as { args_hash: string }).args_hash);
    expect(hashes).toEqual(fixtures.map((f) => f.args_hash));
  }, 60_000);

  it('streams 100,000 lines through --jsonl, in order', async () => {
    const count = 100_000;
    const lineFor = (i: number) =>
      `{"query":"q${i}","page":${i % 97},"filters":{"tag":"t${i % 13}","ratio":${(i / 7).toFixed(3)}}}`;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'hash', '--jsonl'],
      { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let lines = 0;
    let pending = '';
    const samples = new Map<number, string>();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      let newline: number;
      while ((newline = pending.indexOf('\n')) !== -1) {
        if (lines % 9973 === 0) samples.set(lines, pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        lines++;
      }
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const started = performance.now();
    // Written in chunks, honouring backpressure, as a real producer would.
    for (let i = 0; i < count; i += 1000) {
      const chunk = Array.from({ length: 1000 }, (_, k) => lineFor(i + k)).join('\n') + '\n';
      if (!child.stdin.write(chunk))
        await new Promise((resolve) => child.stdin.once('drain', resolve));
    }
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const seconds = (performance.now() - started) / 1000;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(lines).toBe(count);
    for (const [i, line] of samples)
      expect((JSON.parse(line) as { args_hash: string }).args_hash).toBe(
        argsHash(JSON.parse(lineFor(i))),
      );
    console.log(
      `hash --jsonl: ${count} lines in ${seconds.toFixed(1)} s (${Math.round(count / seconds)} lines/s)`,
    );
  }, 180_000);
});
