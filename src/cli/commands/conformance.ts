/**
 * `mcpulse-devtools conformance FILE`: a grader for args_hash. Given a fixture file in the
 * shared format it checks this engine case by case; given a JSONL of `{"input","args_hash"}`
 * pairs that another SDK produced, it checks that SDK, and explains each mismatch by the trap
 * that reproduces it. Exits 1 on any failure, so a port's CI can run it as is.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { TRAPS, type TrapId } from '../../canonical/node.js';
import { UsageError, type Command } from '../io.js';
import { checkFixtures, checkPair, isFixtureFile, type CaseResult } from './conformance-check.js';
import { prog } from '../invocation.js';

const USAGE = `usage: ${prog()} conformance FILE [--json]

FILE is either
  - a fixture file in the shared format ({"fixtures":[{"name","input","canonical","args_hash"}]}):
    every case must reproduce both strings; or
  - a JSONL of {"input": …, "args_hash": "…"} lines that another SDK produced ("input_json",
    a string holding the exact JSON text, may replace "input"; "name" labels the line):
    every hash must match the canonical one, and each mismatch is explained by the trap that
    reproduces it.
Exits 1 if anything fails.

  --json    one JSON result per case, then a summary line, instead of text
  --help    this text
`;

/** The `conformance` command. */
export const command: Command = {
  summary: 'grade args_hash: run a fixture file, or check another SDK’s {input,args_hash} JSONL',
  async run(argv, io) {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        allowPositionals: true,
        options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      });
    } catch (error) {
      throw new UsageError(`${(error as Error).message}\n${USAGE}`);
    }
    const { values, positionals } = parsed;
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError(`expected one FILE\n${USAGE}`);
    const file = positionals[0]!;

    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      io.stderr.write(
        `mcpulse-devtools conformance: cannot read ${file}: ${(error as Error).message}\n`,
      );
      return 2;
    }

    const results = isFixtureFile(text) ? checkFixtures(text) : checkLines(text);
    const failed = results.filter((r) => !r.ok).length;
    if (values.json) {
      for (const r of results) io.stdout.write(JSON.stringify(r) + '\n');
      io.stdout.write(JSON.stringify({ passed: results.length - failed, failed }) + '\n');
    } else {
      io.stdout.write(results.map(formatResult).join('') + summary(results));
    }
    return failed > 0 || results.length === 0 ? 1 : 0;
  },
};

function checkLines(text: string): CaseResult[] {
  const results: CaseResult[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (line.trim() !== '') results.push(checkPair(line, i + 1));
  }
  return results;
}

function formatResult(r: CaseResult): string {
  if (r.ok) return `ok    ${r.name}\n`;
  const lines = [`FAIL  ${r.name}`];
  if (r.problem) lines.push(`      ${r.problem}`);
  if (r.expected.canonical !== undefined && r.expected.canonical !== r.actual.canonical) {
    lines.push(
      `      canonical expected ${r.expected.canonical}`,
      `      canonical actual   ${r.actual.canonical ?? '(unhashable)'}`,
    );
  }
  if (r.explanation !== undefined || r.expected.canonical !== undefined) {
    lines.push(
      `      args_hash sent ${r.expected.args_hash || '(none)'}, canonical ${r.actual.args_hash}`,
    );
  }
  const explanation = r.explanation;
  if (explanation) {
    lines.push(`      ${explanation.summary}`);
    const best = explanation.matches[0];
    if (best?.text != null) lines.push(`      it hashed: ${best.text}`);
    for (const other of explanation.matches.slice(1))
      lines.push(`      (also reproduced by ${other.label})`);
  }
  return lines.join('\n') + '\n';
}

function summary(results: CaseResult[]): string {
  const failed = results.filter((r) => !r.ok);
  const lines = [''];
  // Which traps explain the failures, most frequent first: what a port should fix first.
  const tally = new Map<TrapId, number>();
  for (const r of failed) {
    for (const hit of r.explanation?.matches[0]?.traps ?? [])
      tally.set(hit.trap, (tally.get(hit.trap) ?? 0) + 1);
  }
  if (tally.size > 0) {
    lines.push('traps behind the failures:');
    for (const [trap, n] of [...tally].sort((a, b) => b[1] - a[1]))
      lines.push(`  ${String(n).padStart(5)}× ${trap}: ${TRAPS[trap]}`);
    lines.push('');
  }
  if (results.length === 0) lines.push('no cases found');
  lines.push(`${results.length - failed.length} passed, ${failed.length} failed`);
  return lines.join('\n') + '\n';
}
