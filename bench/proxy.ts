/**
 * The proxy's cost: round-trip latency of a trivial `tools/call` and pipelined throughput,
 * straight to a stdio server and through `mcpulse-devtools proxy` (sending its telemetry to a
 * real dashboard), measured in the same run, alternating, over several rounds.
 *
 *   node --import tsx bench/proxy.ts [--rounds 5] [--warmup 3000] [--calls 5000]
 *     [--throughput 20000] [--window 32] [--sustained 150000]
 *
 * Targets (judged on the `sdk` pairing — the real TypeScript SDK client and server, what a
 * proxied session runs — each on the median over rounds): added p50 < 0.3 ms, added p99 < 1 ms,
 * throughput through the proxy ≥ 80% of direct, every proxied call stored by the dashboard.
 * Printed beside them, not judged: the `raw` pairing (no SDK on either side: the floor any relay
 * process pays on this machine), a sustained flood (telemetry must be sent during it), and the
 * CPU the proxy and the dashboard spend per call. BENCH_PROXY_PROFILE=DIR writes the proxy's
 * CPU profiles there. See docs/benchmarks.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getRemote } from '../src/api/remote.js';
import {
  connect,
  processCpuMs,
  reapedChildrenCpuMs,
  SERVERS,
  type Pairing,
} from './proxy/clients.js';
import { CLI, ensureBuilt, fmt, spawnServer } from './ingest/util.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '3000' },
    calls: { type: 'string', default: '5000' },
    throughput: { type: 'string', default: '20000' },
    window: { type: 'string', default: '32' },
    sustained: { type: 'string', default: '150000' },
    raw: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const ROUNDS = Number(values.rounds);
const WARMUP = Number(values.warmup);
const CALLS = Number(values.calls);
const BURST = Number(values.throughput);
const WINDOW = Number(values.window);
const SUSTAINED = Number(values.sustained);
const TARGET = { addedP50: 0.3, addedP99: 1, throughputShare: 0.8 };

interface Figures {
  p50: number;
  p99: number;
  perSecond: number;
  /** CPU of the server (and the proxy, when proxied) over the whole run, ms. */
  cpuMs: number;
  /** CPU the dashboard used over the run (its exit flush included), ms. */
  dashboardCpuMs: number;
  /** From the client closing to the process having exited (the proxy's exit flush), ms. */
  exitMs: number;
  calls: number;
}

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const median = (xs: number[]): number =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
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
const proxied = (server: string[]): string[] => [
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
  ...server,
];

/**
 * Warm-up (every process's JIT settles: the first few hundred calls through a fresh Node
 * process are slower, proxied or not), `sequential` round trips timed one by one, then
 * `pipelined` calls `WINDOW` at a time.
 */
async function measure(
  pairing: Pairing,
  command: string[],
  sequential: number,
  pipelined: number,
): Promise<Figures> {
  await dashboardIdle();
  const cpu0 = reapedChildrenCpuMs();
  const dash0 = processCpuMs(dashboard.pid);
  const client = await connect(pairing, command);
  for (let i = 0; i < WARMUP; i++) await client.call(i);
  const times: number[] = [];
  for (let i = 0; i < sequential; i++) {
    const t0 = performance.now();
    await client.call(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  let sent = 0;
  const t0 = performance.now();
  const lane = async (): Promise<void> => {
    while (sent < pipelined) await client.call(sent++);
  };
  await Promise.all(Array.from({ length: WINDOW }, lane));
  const perSecond = pipelined / ((performance.now() - t0) / 1000);
  const closing = performance.now();
  await client.close();
  const exitMs = performance.now() - closing;
  // The dashboard acknowledges a batch once it is spooled and stores it after: its CPU for
  // this run is counted once it is idle again.
  await dashboardIdle();
  return {
    p50: sequential ? quantile(times, 0.5) : NaN,
    p99: sequential ? quantile(times, 0.99) : NaN,
    perSecond,
    cpuMs: reapedChildrenCpuMs() - cpu0,
    dashboardCpuMs: processCpuMs(dashboard.pid) - dash0,
    exitMs,
    calls: WARMUP + sequential + pipelined,
  };
}

/**
 * Waits until the dashboard has used < 10 ms of CPU in 250 ms (it stores a batch after it has
 * acknowledged it), so that no run pays for the previous run's telemetry. At most 60 s.
 */
async function dashboardIdle(): Promise<void> {
  const until = performance.now() + 60_000;
  for (;;) {
    const before = processCpuMs(dashboard.pid);
    await new Promise((r) => setTimeout(r, 250));
    if (processCpuMs(dashboard.pid) - before < 10 || performance.now() > until) return;
  }
}

interface Row {
  direct: Figures;
  proxied: Figures;
  load: string;
}

/** Direct and proxied, alternating which goes first (a slow patch must not always hit one). */
async function rounds(pairing: Pairing, n: number, seq: number, pipe: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (let r = 0; r < n; r++) {
    const order = r % 2 === 0 ? (['direct', 'proxied'] as const) : (['proxied', 'direct'] as const);
    const got: Partial<Record<'direct' | 'proxied', Figures>> = {};
    for (const side of order)
      got[side] = await measure(
        pairing,
        side === 'direct' ? SERVERS[pairing] : proxied(SERVERS[pairing]),
        seq,
        pipe,
      );
    const row = { direct: got.direct!, proxied: got.proxied!, load: load() };
    rows.push(row);
    const d = row.direct;
    const p = row.proxied;
    const lat = (f: Figures) =>
      seq ? `p50 ${f.p50.toFixed(3)} ms p99 ${f.p99.toFixed(3)} ms ` : '';
    console.log(
      `  ${pairing} round ${r + 1}: direct ${lat(d)}${fmt(d.perSecond)}/s | proxied ${lat(p)}${fmt(p.perSecond)}/s` +
        ` (${((p.perSecond / d.perSecond) * 100).toFixed(0)}%) | proxy exit ${p.exitMs.toFixed(0)} ms | load ${row.load}`,
    );
  }
  return rows;
}

/** The medians of a pairing's rounds. */
function summary(rows: Row[]) {
  const per = (f: (r: Row) => number) => median(rows.map(f));
  return {
    addedP50: per((r) => r.proxied.p50 - r.direct.p50),
    addedP99: per((r) => r.proxied.p99 - r.direct.p99),
    share: per((r) => r.proxied.perSecond / r.direct.perSecond),
    proxyCpuUs: per((r) => ((r.proxied.cpuMs - r.direct.cpuMs) / r.proxied.calls) * 1000),
    dashboardCpuUs: per((r) => (r.proxied.dashboardCpuMs / r.proxied.calls) * 1000),
    exitMs: per((r) => r.proxied.exitMs),
    proxiedCalls: rows.reduce((n, r) => n + r.proxied.calls, 0),
  };
}

function report(title: string, s: ReturnType<typeof summary>, judged: boolean): void {
  const mark = (ok: boolean) => (judged ? (ok ? '  met' : '  MISSED') : '');
  console.log(`\n${title}`);
  if (!Number.isNaN(s.addedP50)) {
    console.log(
      `  added p50     ${s.addedP50.toFixed(3)} ms   (target < ${TARGET.addedP50} ms)${mark(s.addedP50 < TARGET.addedP50)}`,
    );
    console.log(
      `  added p99     ${s.addedP99.toFixed(3)} ms   (target < ${TARGET.addedP99} ms)${mark(s.addedP99 < TARGET.addedP99)}`,
    );
  }
  console.log(
    `  throughput    ${(s.share * 100).toFixed(1)}% of direct   (target ≥ ${TARGET.throughputShare * 100}%)${mark(s.share >= TARGET.throughputShare)}`,
  );
  console.log(
    `  CPU per call  proxy ${s.proxyCpuUs.toFixed(1)} µs (relay + telemetry thread), dashboard ${s.dashboardCpuUs.toFixed(1)} µs (storing it)`,
  );
  console.log(`  proxy exit    ${s.exitMs.toFixed(0)} ms after the client closed (its exit flush)`);
}

const stored = async (): Promise<number> => (await getRemote(dashboard.url, 'status')).counts.calls;

console.log(
  `proxy bench: ${ROUNDS} rounds × (${fmt(WARMUP)} warm-up + ${fmt(CALLS)} sequential + ${fmt(BURST)} pipelined calls, ${WINDOW} in flight) per pairing, direct and proxied alternating; load ${load()}`,
);
const sdk = summary(await rounds('sdk', ROUNDS, CALLS, BURST));
const raw = summary(await rounds('raw', values.raw ? ROUNDS : 0, CALLS, BURST));
const storedAfterRounds = await stored();
const expected = sdk.proxiedCalls + raw.proxiedCalls;

console.log(`\nsustained: ${fmt(SUSTAINED)} pipelined calls, sdk pairing, twice each way`);
const sustained = summary(await rounds('sdk', SUSTAINED ? 2 : 0, 0, SUSTAINED));
const storedSustained = (await stored()) - storedAfterRounds;
await dashboard.stop();
rmSync(dir, { recursive: true, force: true });

report(`sdk pairing — judged (median over ${ROUNDS} rounds):`, sdk, true);
if (values.raw) report('raw pipes — the floor, not judged:', raw, false);
if (SUSTAINED) report('sustained flood — not judged:', sustained, false);
console.log(
  `\ntelemetry: ${fmt(storedAfterRounds)} of ${fmt(expected)} proxied calls stored (rounds); ` +
    `${fmt(storedSustained)} of ${fmt(sustained.proxiedCalls)} (sustained)   load now ${load()}`,
);
const met =
  sdk.addedP50 < TARGET.addedP50 &&
  sdk.addedP99 < TARGET.addedP99 &&
  sdk.share >= TARGET.throughputShare &&
  storedAfterRounds === expected;
console.log(met ? 'targets met' : 'TARGET MISSED');
process.exitCode = met ? 0 : 1;
