/**
 * Ingest under sustained load: autocannon in this process, the server in another, on
 * loopback. For each batch size (30 = what SDKs flush, 500 = the hosted maximum), a bare
 * baseline (bench/ingest/baseline.ts) and `mcpulse-devtools serve` run the same load side by
 * side in the same run; payloads/s, acknowledgement latency and the server's memory are
 * reported, and the stored row count is checked against the 2xx count.
 *
 *   node --import tsx bench/ingest.ts [--duration 10] [--connections 8] [--sizes 30,500]
 *     [--rounds 1] [--steady-rate 40] [--max-spool N] [--profile]
 *   node --import tsx bench/ingest.ts --soak [--soak-rate 2000] [--duration 60] [--soak-after 30]
 *
 * Targets (issue 6): at 30 payloads per flush, ≥ 70% of the baseline's payloads/s with p99
 * under 50 ms, and the server's RSS flat during the run. With `--max-spool` below the flood
 * (issue 19): stored end to end at ≥ 30% of the baseline's payloads/s, RSS flat.
 */
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  bodyFactory,
  CLI,
  ensureBuilt,
  fmt,
  ROOT,
  sampleRss,
  spawnServer,
  type Proc,
  BENCH_TOKEN,
} from './ingest/util.js';
import { getRemote } from '../src/api/remote.js';
import { readRetentionTotals } from '../src/store/retention/totals.js';
import { soak } from './ingest/soak.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '8' },
    sizes: { type: 'string', default: '30,500' },
    profile: { type: 'boolean', default: false },
    'steady-rate': { type: 'string', default: '40' },
    /** Baseline/devtools pairs per batch size; the verdict takes the median pair. */
    rounds: { type: 'string', default: '1' },
    /** Passed to `serve --max-spool`: shows what happens once a flood outlasts the spool. */
    'max-spool': { type: 'string' },
    /**
     * Issue 19's soak: a steady `--soak-rate` payloads/s for `--duration` s with two summary
     * readers and a slow export, then a flood that outlasts a small spool beside the baseline.
     */
    soak: { type: 'boolean', default: false },
    'soak-rate': { type: 'string', default: '2000' },
    'soak-after': { type: 'string', default: '30' },
  },
});
if (values.soak) values['max-spool'] ??= '20000';
/** Requests/s for the steady run: 40 × 30 = 1,200 payloads/s ≈ 200 MCP servers each flushing 30 every 5 s. */
const STEADY_RATE = Number(values['steady-rate']);
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const SIZES = values.sizes.split(',').map(Number);
const ROUNDS = Math.max(1, Number(values.rounds));

type Kind = 'baseline' | 'devtools';
interface Row {
  kind: Kind;
  size: number;
  /** Which baseline/devtools pair (1-based); on a shared machine only a pair compares. */
  round: number;
  /** Requests/s the load was held to, or undefined for as fast as answered. */
  rate?: number;
  payloadsPerSec: number;
  requestsPerSec: number;
  p50: number;
  p99: number;
  max: number;
  failures: number;
  /** Start, middle and end of the measured run, and the peak. */
  rss: { start: number; mid: number; end: number; peak: number };
  stored: number;
  /** Calls retention deleted meanwhile (its default cap is 2,000,000), as the file counts them. */
  retained: number;
  acked: number;
  /** Devtools only: acknowledged items still spooled when the load stopped, and how long the
   * idle server then took to apply them. */
  spooledAtEnd?: number;
  drainMs?: number;
  /** Every acknowledged item, warm-up included, over load time plus drain time. */
  endToEndPerSec?: number;
}

/** Reads the spool's backlog (a route that does not itself apply it). */
async function spoolNow(url: string): Promise<number> {
  return (await getRemote(url, 'spool', {}, { token: BENCH_TOKEN })).spool?.pendingPayloads ?? 0;
}

/** Waits until the devtools server has applied everything it acknowledged; returns ms. */
async function drained(url: string): Promise<number> {
  const t0 = performance.now();
  while ((await spoolNow(url)) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  return performance.now() - t0;
}

/**
 * Every acknowledged payload is stored; a few more may be, from requests still in flight when
 * autocannon stopped counting (at most one per connection per run, warm-up included).
 */
const storedOk = (r: Row): boolean => {
  const kept = r.stored + r.retained;
  return kept >= r.acked && kept - r.acked <= 2 * CONNECTIONS * r.size;
};

/** The count check's cell: stored (+ deleted by retention) against acknowledged. */
function storedCell(r: Row): string {
  const kept = r.stored + r.retained;
  const retention = r.retained > 0 ? `, ${fmt(r.retained)} of them since deleted by retention` : '';
  if (!storedOk(r))
    return `NO: ${fmt(r.stored)} stored + ${fmt(r.retained)} deleted by retention, ${fmt(r.acked)} acknowledged`;
  return `yes (${fmt(r.acked)}${kept > r.acked ? ` + ${kept - r.acked} in flight at the end` : ''}${retention})`;
}

async function start(kind: Kind, db: string, profileDir?: string): Promise<Proc> {
  if (kind === 'baseline')
    return spawnServer(
      join(ROOT, 'bench', 'ingest', 'baseline.ts'),
      ['--db', db],
      ['--import', 'tsx'],
    );
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  return spawnServer(
    CLI,
    [
      'serve',
      '--port',
      '0',
      '--db',
      db,
      '--no-rate-limit',
      ...(values['max-spool'] ? ['--max-spool', values['max-spool']] : []),
    ],
    nodeArgs,
    /dashboard\s+(http:\/\/\S+)/,
  );
}

function load(url: string, size: number, seconds: number, runId: string, overallRate?: number) {
  const next = bodyFactory(size, runId);
  return autocannon({
    url: `${url}/v1/ingest`,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    ...(overallRate ? { overallRate } : {}),
    requests: [
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: 'Bearer mp_live_bench_key_0000000000000000',
        },
        setupRequest: (req, context) => ({ ...req, body: next(context) }),
      },
    ],
  });
}

async function run(
  kind: Kind,
  size: number,
  round: number,
  profileDir?: string,
  rate?: number,
): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), `mcpulse-bench-${kind}-`));
  const db = join(dir, 'bench.db');
  const server = await start(kind, db, profileDir);
  try {
    const warm = WARMUP > 0 ? await load(server.url, size, WARMUP, `${kind}w${size}`) : null;
    // The warm-up warms the JIT and caches; what it spooled is applied before the measured run,
    // so that run is a flood arriving at an idle server.
    if (kind === 'devtools') await drained(server.url);
    const rss = sampleRss(server.pid);
    const r = await load(server.url, size, DURATION, `${kind}${size}`, rate);
    const samples = rss.stop();
    const spooledAtEnd = kind === 'devtools' ? await spoolNow(server.url) : undefined;
    const drainMs = kind === 'devtools' ? await drained(server.url) : undefined;
    await server.stop();
    const acked = (r['2xx'] + (warm?.['2xx'] ?? 0)) * size;
    const file = new Database(db, { readonly: true });
    const stored = (file.prepare('SELECT count(*) AS n FROM calls').get() as { n: number }).n;
    // Past the default cap (2,000,000 calls) retention deletes the oldest; the file counts them.
    const retained = kind === 'devtools' ? readRetentionTotals(file).deleted.calls : 0;
    file.close();
    const mid = samples.find((x) => x.t >= (DURATION * 1000) / 2) ?? samples.at(-1)!;
    return {
      kind,
      size,
      round,
      rate,
      payloadsPerSec: (r['2xx'] * size) / r.duration,
      requestsPerSec: r['2xx'] / r.duration,
      p50: r.latency.p50,
      p99: r.latency.p99,
      max: r.latency.max,
      failures: r.non2xx + r.errors + r.timeouts,
      rss: {
        start: samples[0]!.mib,
        mid: mid.mib,
        end: samples.at(-1)!.mib,
        peak: Math.max(...samples.map((x) => x.mib)),
      },
      stored,
      retained,
      acked,
      spooledAtEnd,
      drainMs,
      endToEndPerSec:
        drainMs === undefined
          ? undefined
          : acked / ((warm ? warm.duration : 0) + r.duration + drainMs / 1000),
    };
  } finally {
    await server.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Self time by function from a V8 .cpuprofile, top `n`. */
function summariseProfile(dir: string, n = 25): string {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return '(no profile written)';
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    nodes: {
      id: number;
      callFrame: { functionName: string; url: string; lineNumber: number };
      hitCount?: number;
    }[];
    startTime: number;
    endTime: number;
    samples: number[];
  };
  const total = profile.samples.length;
  const byFn = new Map<string, number>();
  const byArea = new Map<string, number>();
  const area = (url: string, fn: string): string => {
    if (fn === '(idle)' || fn === '(program)' || fn === '(garbage collector)') return fn;
    if (url.includes('better-sqlite3')) return 'better-sqlite3 (JS side + native SQLite)';
    if (url.includes('/zod/')) return 'zod validation';
    if (url.includes('/dist/store/metrics/') || url.includes('/dist/metrics/'))
      return 'metrics: derived facts';
    if (url.includes('/dist/store/')) return 'store (write.ts etc.)';
    if (url.includes('/dist/ingest/')) return 'ingest (validate, key)';
    if (url.includes('/dist/server/')) return 'server (routing, guards)';
    if (url.startsWith('node:') || url === '')
      return fn.startsWith('(') ? fn : 'node core (http, JSON, buffers, natives)';
    return basename(url);
  };
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (!hits) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'}  ${url ? `${basename(url)}:${lineNumber + 1}` : ''}`;
    byFn.set(key, (byFn.get(key) ?? 0) + hits);
    const a = area(url, functionName);
    byArea.set(a, (byArea.get(a) ?? 0) + hits);
  }
  const pct = (h: number): string => `${((100 * h) / total).toFixed(1).padStart(5)}%`;
  const lines = [
    'CPU profile of the devtools server (self time, share of all samples):',
    '',
    'by area:',
  ];
  for (const [k, h] of [...byArea].sort((a, b) => b[1] - a[1])) lines.push(`  ${pct(h)}  ${k}`);
  lines.push('', 'top functions:');
  for (const [k, h] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, n))
    lines.push(`  ${pct(h)}  ${k}`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  ensureBuilt();
  console.log(
    `ingest bench: ${CONNECTIONS} connections, ${DURATION} s per run after ${WARMUP} s warm-up, ` +
      (values['max-spool'] ? `serve --max-spool ${values['max-spool']}, ` : '') +
      `node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs, ${new Date().toISOString()}`,
  );
  if (values.soak) {
    await soak({
      rate: Number(values['soak-rate']),
      seconds: DURATION,
      afterSeconds: Number(values['soak-after']),
      size: 30,
      connections: CONNECTIONS,
    });
    console.log(`\nflood longer than the spool (--max-spool ${values['max-spool']}), 30/batch:`);
    const base = await run('baseline', 30, 1);
    const dev = await run('devtools', 30, 1);
    console.log(
      `  bare baseline ${fmt(base.payloadsPerSec)} payloads/s · devtools end-to-end (acknowledged and applied) ` +
        `${fmt(dev.endToEndPerSec!)} payloads/s = ${((100 * dev.endToEndPerSec!) / base.payloadsPerSec).toFixed(0)}% ` +
        `of the baseline · load average ${loadavg()
          .map((x) => x.toFixed(2))
          .join(' ')}`,
    );
    return;
  }
  const rows: Row[] = [];
  let profileDir: string | undefined;
  for (const size of SIZES) {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const kind of ['baseline', 'devtools'] as const) {
        const dir =
          values.profile && kind === 'devtools' && size === SIZES[0] && round === 1
            ? mkdtempSync(join(tmpdir(), 'mcpulse-prof-'))
            : undefined;
        if (dir) profileDir = dir;
        const row = await run(kind, size, round, dir);
        rows.push(row);
        console.log(
          `  ${String(size).padStart(3)}/batch #${round} ${kind.padEnd(8)} ${fmt(row.payloadsPerSec).padStart(8)} payloads/s  ` +
            `p50 ${fmt(row.p50, 1)} ms  p99 ${fmt(row.p99, 1)} ms  RSS ${fmt(row.rss.start)}→${fmt(row.rss.end)} MiB`,
        );
      }
    }
  }

  for (const kind of ['baseline', 'devtools'] as const) {
    if (!SIZES.includes(30) || STEADY_RATE <= 0) break;
    const row = await run(kind, 30, 1, undefined, STEADY_RATE);
    rows.push(row);
    console.log(
      `   30/batch ${kind.padEnd(8)} steady ${STEADY_RATE} req/s: p50 ${fmt(row.p50, 1)} ms  p99 ${fmt(row.p99, 1)} ms`,
    );
  }

  console.log(
    '\n| payloads per request | round | server | payloads/s | requests/s | p50 ack | p99 ack | max ack | non-2xx / errors | server RSS start → mid → end (peak) | spooled at end → applied after | end-to-end payloads/s | rows stored = acknowledged |',
  );
  console.log('|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---|---:|---|');
  for (const r of rows) {
    const name = `${r.kind === 'baseline' ? 'bare baseline' : '**mcpulse-devtools serve**'}${r.rate ? `, held to ${r.rate} req/s` : ''}`;
    console.log(
      `| ${r.size} | ${r.rate ? '—' : r.round} | ${name} | ${fmt(r.payloadsPerSec)} | ${fmt(r.requestsPerSec)} | ` +
        `${fmt(r.p50, 1)} ms | ${fmt(r.p99, 1)} ms | ${fmt(r.max, 1)} ms | ${r.failures} | ${fmt(r.rss.start)} → ${fmt(r.rss.mid)} → ${fmt(r.rss.end)} (${fmt(r.rss.peak)}) MiB | ` +
        `${r.drainMs === undefined ? '—' : `${fmt(r.spooledAtEnd!)} → ${fmt(r.drainMs / 1000, 1)} s`} | ${r.endToEndPerSec === undefined ? '—' : fmt(r.endToEndPerSec)} | ` +
        `${storedCell(r)} |`,
    );
  }
  console.log('');
  let ok = true;
  for (const size of SIZES) {
    const pairs = Array.from({ length: ROUNDS }, (_, i) => {
      const of = (kind: Kind) =>
        rows.find((r) => r.size === size && r.kind === kind && !r.rate && r.round === i + 1)!;
      return { base: of('baseline'), dev: of('devtools') };
    });
    pairs.sort(
      (a, b) =>
        a.dev.payloadsPerSec / a.base.payloadsPerSec - b.dev.payloadsPerSec / b.base.payloadsPerSec,
    );
    // The median pair (the lower middle one for an even count): one noisy round decides nothing.
    const { base, dev } = pairs[Math.floor((pairs.length - 1) / 2)]!;
    const ratio = dev.payloadsPerSec / base.payloadsPerSec;
    // Flat: the second half of the run (after caches and the heap have warmed) adds little.
    const growth = dev.rss.end - dev.rss.mid;
    const flat = growth < Math.max(8, dev.rss.mid * 0.05);
    const line = [
      `${size}/batch: devtools at ${(ratio * 100).toFixed(0)}% of baseline payloads/s` +
        (ROUNDS > 1
          ? ` (median of ${ROUNDS} rounds: ${pairs.map((p) => `${((100 * p.dev.payloadsPerSec) / p.base.payloadsPerSec).toFixed(0)}%`).join(', ')})`
          : ''),
      `p99 ${fmt(dev.p99, 1)} ms`,
      `RSS ${growth >= 0 ? '+' : ''}${fmt(growth, 1)} MiB over the second half (${flat ? 'flat' : 'GROWING'})`,
    ];
    if (size === 30 && values['max-spool']) {
      // A spool bounded below the flood: acknowledging waits for storing, so the figure that
      // counts is what is stored per second end to end (issue 19), not what is acknowledged.
      const share = (dev.endToEndPerSec ?? 0) / base.payloadsPerSec;
      const pass = share >= 0.3 && flat;
      ok &&= pass;
      line.push(
        `end-to-end ${(share * 100).toFixed(0)}% of the baseline · target for a flood longer than the spool (issue 19) ≥ 30%: ${pass ? 'MET' : 'MISSED'}`,
      );
    } else if (size === 30) {
      const steady = rows.find((r) => r.kind === 'devtools' && r.rate);
      const pass = ratio >= 0.7 && dev.p99 < 50 && flat;
      ok &&= pass;
      line.push(`target ≥ 70% and p99 < 50 ms: ${pass ? 'MET' : 'MISSED'}`);
      if (steady)
        line.push(
          `p99 at a steady ${fmt(steady.rate! * size)} payloads/s: ${fmt(steady.p99, 1)} ms`,
        );
    }
    if (pairs.some((p) => !storedOk(p.dev) || !storedOk(p.base))) ok = false;
    console.log(line.join(' · '));
  }
  if (profileDir) {
    console.log('\n' + summariseProfile(profileDir));
    if (process.env.KEEP_PROFILE) console.log(`profile kept in ${profileDir}`);
    else rmSync(profileDir, { recursive: true, force: true });
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
