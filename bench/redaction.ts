/**
 * What value redaction (issue 40, src/redact) costs per captured message, beside a baseline in
 * the same run: `JSON.parse` + `JSON.stringify` of the same text — what any walk of a message
 * costs at least, and about what the key-name-only redactor before issue 40 paid when a message
 * held a secret-looking key. Messages: the kinds a proxied session carries, clean and with
 * secrets (fake, made at run time). Run: node --import tsx bench/redaction.ts [--rounds N]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Redactor } from '../src/redact/index.js';
import { fakeSecrets } from '../test/redact/fake-secrets.js';
import { median } from './stats.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const ROUNDS = Math.max(1, Number(values.rounds));
const s = fakeSecrets();
const rpc = (result: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 7, result });
const call = (args: unknown) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'x', arguments: args },
  });
const text = (t: string) => rpc({ content: [{ type: 'text', text: t }], isError: false });

const MESSAGES: [string, string][] = [
  ['clean tools/call request', call({ query: 'open issues since monday', limit: 20 })],
  ['clean text result (1 KB)', text('found 12 issues: ' + 'lorem ipsum dolor '.repeat(55))],
  [
    'progress notification',
    '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":3,"progress":40}}',
  ],
  ['URL without credentials', call({ url: 'https://example.com/a/b?page=2&sort=asc' })],
  ['a password argument', call({ user: 'ada', password: 'hunter22' })],
  [
    'six secrets in one argument',
    call({ message: `${s.openai} ${s.github} ${s.aws} ${s.jwt} ${s.url} ${s.tokenUrl}` }),
  ],
  ['clean 256 KB result', text('lorem ipsum dolor sit amet '.repeat(9_700))],
  ['120 KB result with one token', text('lorem ipsum '.repeat(10_000) + s.github)],
];

/** Median µs per call of `fn` over `n` calls, in `ROUNDS` rounds. */
async function perCall(fn: () => unknown, n: number): Promise<number> {
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn();
    rounds.push(((performance.now() - t0) * 1000) / n);
  }
  return median(rounds);
}

const redactor = new Redactor();
const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
console.log(`redaction per message (median of ${ROUNDS} rounds; load ${load})\n`);
console.log(
  `${'message'.padEnd(30)} ${'bytes'.padStart(8)} ${'→ stored'.padStart(9)} ${'parse+stringify µs'.padStart(19)} ${'redaction µs'.padStart(13)}`,
);
for (const [name, body] of MESSAGES) {
  const n = body.length > 100_000 ? 20 : 400;
  // Warm both paths, then time them one after the other on the same text.
  await redactor.redactJson(body);
  const base = await perCall(() => JSON.stringify(JSON.parse(body)), n);
  const cost = await perCall(() => redactor.redactJson(body), n);
  const stored = (await redactor.redactJson(body)).text;
  console.log(
    `${name.padEnd(30)} ${String(Buffer.byteLength(body)).padStart(8)} ${String(Buffer.byteLength(stored)).padStart(9)} ${base.toFixed(1).padStart(19)} ${cost.toFixed(1).padStart(13)}`,
  );
}
