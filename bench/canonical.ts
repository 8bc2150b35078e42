/**
 * canonicalize + SHA-256 throughput: this engine against the fastest RFC 8785 packages on npm
 * (json-canon, canonicalize), each with node:crypto's SHA-256, and bare `JSON.stringify` +
 * SHA-256 as the ceiling (it does not sort, so it is not a correct args_hash — only a bound).
 *
 *   node --import tsx bench/canonical.ts            # ~15 s
 *   node --import tsx bench/canonical.ts --quick    # ~4 s, for a smoke check
 *
 * Prints a Markdown table (paste it into docs/benchmarks.md) and exits non-zero if any
 * contender disagrees with the engine's output, so a fast-but-wrong change cannot look good.
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import jsonCanon from 'json-canon';
import erdtman from 'canonicalize';
import { argsHash, canonicalize } from '../src/canonical/node.js';
import { largeArgs, SMALL_ARGS } from './canonical/inputs.js';

type Contender = { name: string; hash: (value: unknown) => string };

const sha12 = (text: string) =>
  createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 12);

const CONTENDERS: Contender[] = [
  { name: 'mcpulse argsHash', hash: argsHash },
  { name: 'json-canon + sha256', hash: (v) => sha12(jsonCanon(v)) },
  { name: 'canonicalize + sha256', hash: (v) => sha12(erdtman(v) ?? '') },
  { name: 'JSON.stringify + sha256 (ceiling)', hash: (v) => sha12(JSON.stringify(v)) },
];

const quick = process.argv.includes('--quick');
const WARMUP_MS = quick ? 150 : 400;
const MEASURE_MS = quick ? 400 : 1500;
const ROUNDS = quick ? 1 : 3;

/** Operations per second: the best of a few timed rounds, after a warm-up. */
function measure(fn: () => unknown): number {
  const until = (ms: number) => {
    let ops = 0;
    const start = performance.now();
    let now = start;
    // Check the clock every 64 calls so timing overhead stays out of the number.
    while (now - start < ms) {
      for (let i = 0; i < 64; i++) fn();
      ops += 64;
      now = performance.now();
    }
    return (ops / (now - start)) * 1000;
  };
  until(WARMUP_MS);
  let best = 0;
  for (let r = 0; r < ROUNDS; r++) best = Math.max(best, until(MEASURE_MS));
  return best;
}

const inputs = [
  { name: `small (${JSON.stringify(SMALL_ARGS).length} B)`, value: SMALL_ARGS },
  {
    name: `large (${(JSON.stringify(largeArgs()).length / 1024).toFixed(1)} KB)`,
    value: largeArgs(),
  },
];

// Correctness first: every RFC 8785 contender must agree with the engine byte for byte.
for (const { name, value } of inputs) {
  const ours = canonicalize(value);
  for (const [label, text] of [
    ['json-canon', jsonCanon(value)],
    ['canonicalize', erdtman(value)],
  ] as const) {
    if (text !== ours) {
      console.error(`${label} disagrees with the engine on the ${name} input`);
      process.exit(1);
    }
  }
}

const lines = [
  '| contender | ' + inputs.map((i) => `${i.name} ops/s | µs/op`).join(' | ') + ' |',
  '|---|' + inputs.map(() => '---:|---:').join('|') + '|',
];
const results = new Map<string, number[]>();
for (const contender of CONTENDERS) {
  const row = inputs.map(({ value }) => measure(() => contender.hash(value)));
  results.set(contender.name, row);
  const cells = row.map(
    (ops) => `${Math.round(ops).toLocaleString('en-US')} | ${(1e6 / ops).toFixed(2)}`,
  );
  lines.push(`| ${contender.name} | ${cells.join(' | ')} |`);
}

const ours = results.get('mcpulse argsHash')!;
const ceiling = results.get('JSON.stringify + sha256 (ceiling)')!;
const packages = ['json-canon + sha256', 'canonicalize + sha256'].map((n) => results.get(n)!);
const summary = inputs.map(({ name }, i) => {
  const vsCeiling = ceiling[i]! / ours[i]!;
  const vsBest = ours[i]! / Math.max(...packages.map((p) => p[i]!));
  return `${name}: ${vsCeiling.toFixed(2)}× the ceiling's time, ${vsBest.toFixed(2)}× the fastest package's speed`;
});

console.log(lines.join('\n'));
console.log('');
for (const line of summary) console.log(`- ${line}`);
console.log(
  `\n${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.version}`,
);
