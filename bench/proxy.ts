/**
 * The proxy's cost: round-trip latency of a trivial `tools/call` and pipelined throughput,
 * straight to a stdio server and through `mcpulse-devtools proxy` (sending its telemetry to a
 * real dashboard), measured in the same run, alternating, over several rounds.
 *
 *   node --import tsx bench/proxy.ts [--rounds 5] [--calls 3000] [--throughput 20000] [--window 32]
 *
 * Targets: added p50 < 0.3 ms, added p99 < 1 ms, throughput through the proxy ≥ 80% of direct
 * (each judged on the median over rounds: this machine is shared, so a single round can be
 * hit by someone else's build). BENCH_PROXY_PROFILE=DIR writes the proxy's CPU profiles there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LineSplitter } from '../src/proxy/lines.js';
import { CLI, ensureBuilt, fmt, ROOT, spawnServer } from './ingest/util.js';
import { getRemote } from '../src/api/remote.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    calls: { type: 'string', default: '3000' },
    throughput: { type: 'string', default: '20000' },
    window: { type: 'string', default: '32' },
  },
});
const ROUNDS = Number(values.rounds);
const CALLS = Number(values.calls);
const THROUGHPUT_CALLS = Number(values.throughput);
const WINDOW = Number(values.window);
const TARGET = { addedP50: 0.3, addedP99: 1, throughputShare: 0.8 };

const SERVER = [
  process.execPath,
  '--import',
  'tsx',
  join(ROOT, 'bench', 'proxy', 'trivial-server.ts'),
];

/** A JSON-RPC client over a child's stdio, matching answers by id. */
class LineClient {
  private readonly child: ChildProcess;
  private nextId = 1;
  private readonly waiting = new Map<number, () => void>();

  constructor(command: string[]) {
    this.child = spawn(command[0]!, command.slice(1), {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const lines = new LineSplitter((line) => {
      const id = (JSON.parse(line.toString()) as { id?: number }).id;
      if (id === undefined) return;
      const done = this.waiting.get(id);
      this.waiting.delete(id);
      done?.();
    });
    this.child.stdout!.on('data', (c: Buffer) => lines.push(c));
  }

  request(method: string, params: unknown): Promise<void> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  }

  async handshake(): Promise<void> {
    await this.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'bench', version: '1' },
    });
    this.child.stdin!.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await this.request('tools/list', {});
  }

  call(i: number): Promise<void> {
    return this.request('tools/call', { name: 'ping', arguments: { i, q: 'bench' } });
  }

  async close(): Promise<void> {
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.stdin!.end();
    await exited;
  }
}

interface Figures {
  p50: number;
  p99: number;
  perSecond: number;
}

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const median = (xs: number[]): number =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

/** Sequential round trips (after a warm-up), then a pipelined run with WINDOW in flight. */
async function measure(command: string[]): Promise<Figures> {
  const client = new LineClient(command);
  await client.handshake();
  for (let i = 0; i < 300; i++) await client.call(i);
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await client.call(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  let sent = 0;
  const t0 = performance.now();
  const lane = async (): Promise<void> => {
    while (sent < THROUGHPUT_CALLS) await client.call(sent++);
  };
  await Promise.all(Array.from({ length: WINDOW }, lane));
  const perSecond = THROUGHPUT_CALLS / ((performance.now() - t0) / 1000);
  await client.close();
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), perSecond };
}

const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), 'mcpulse-bench-proxy-'));
const dashboard = await spawnServer(
  CLI,
  ['serve', '--port', '0', '--db', join(dir, 'devtools.db'), '--no-rate-limit'],
  [],
  /dashboard\s+(http:\/\/\S+)/,
);
const PROXIED = [
  process.execPath,
  ...(process.env.BENCH_PROXY_PROFILE
    ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROXY_PROFILE]
    : []),
  CLI,
  'proxy',
  '--url',
  dashboard.url,
  '--key',
  'px_bench',
  '--',
  ...SERVER,
];

console.log(
  `proxy bench: ${ROUNDS} rounds × (${fmt(CALLS)} sequential calls + ${fmt(THROUGHPUT_CALLS)} pipelined, ${WINDOW} in flight), direct and proxied alternating`,
);
const rows: { direct: Figures; proxied: Figures; load: string }[] = [];
for (let r = 0; r < ROUNDS; r++) {
  // Alternate which goes first, so a slow patch on the machine does not always hit one side.
  const order = r % 2 === 0 ? (['direct', 'proxied'] as const) : (['proxied', 'direct'] as const);
  const got: Partial<Record<'direct' | 'proxied', Figures>> = {};
  for (const side of order) got[side] = await measure(side === 'direct' ? SERVER : PROXIED);
  const row = { direct: got.direct!, proxied: got.proxied!, load: load() };
  rows.push(row);
  console.log(
    `  round ${r + 1}: direct p50 ${row.direct.p50.toFixed(3)} ms p99 ${row.direct.p99.toFixed(3)} ms ${fmt(row.direct.perSecond)}/s` +
      ` | proxied p50 ${row.proxied.p50.toFixed(3)} ms p99 ${row.proxied.p99.toFixed(3)} ms ${fmt(row.proxied.perSecond)}/s` +
      ` | load ${row.load}`,
  );
}

const calls = await getRemote(dashboard.url, 'calls', { limit: 1 });
const status = await getRemote(dashboard.url, 'status');
await dashboard.stop();
rmSync(dir, { recursive: true, force: true });

const addedP50 = median(rows.map((r) => r.proxied.p50 - r.direct.p50));
const addedP99 = median(rows.map((r) => r.proxied.p99 - r.direct.p99));
const share = median(rows.map((r) => r.proxied.perSecond / r.direct.perSecond));
const expected = ROUNDS * (300 + CALLS + THROUGHPUT_CALLS);
console.log(`\nmedian over ${ROUNDS} rounds (load average now ${load()}):`);
console.log(`  added p50     ${addedP50.toFixed(3)} ms   (target < ${TARGET.addedP50} ms)`);
console.log(`  added p99     ${addedP99.toFixed(3)} ms   (target < ${TARGET.addedP99} ms)`);
console.log(
  `  throughput    ${(share * 100).toFixed(1)}% of direct   (target ≥ ${TARGET.throughputShare * 100}%)`,
);
console.log(
  `  telemetry     ${fmt(status.counts.calls)} of ${fmt(expected)} proxied calls stored by the dashboard${calls.calls.length ? '' : ' (none!)'}`,
);
const met =
  addedP50 < TARGET.addedP50 &&
  addedP99 < TARGET.addedP99 &&
  share >= TARGET.throughputShare &&
  status.counts.calls === expected;
console.log(met ? '  targets met' : '  TARGET MISSED');
process.exitCode = met ? 0 : 1;
