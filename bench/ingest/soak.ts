/**
 * The soak of issue 19 for bench/ingest.ts `--soak`: one key at a steady rate (default 2,000
 * payloads/s) while an export streams slowly and two dashboard readers poll `/api/summary`.
 * Prints the WAL size over time, the summary latency during the load, the WAL after the load
 * stopped and after a clean shutdown, and the server's CPU per stored call.
 */
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_HEADERS, bodyFactory, CLI, fmt, spawnServer } from './util.js';

/** What one soak measured. */
export interface SoakResult {
  walPeakMiB: number;
  walAfterLoadMiB: number;
  walAfterCloseMiB: number;
  summaryP50: number;
  summaryP99: number;
  summaryMax: number;
  stored: number;
  acked: number;
  cpuUsPerCall: number;
}

const MIB = 1024 * 1024;
const walMiB = (db: string): number => {
  try {
    return statSync(`${db}-wal`).size / MIB;
  } catch {
    return 0;
  }
};

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks
}

const pct = (sorted: number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : NaN;

/** Runs the soak against `mcpulse-devtools serve` and prints what it saw. */
export async function soak(options: {
  rate: number;
  seconds: number;
  afterSeconds: number;
  size: number;
  connections: number;
}): Promise<SoakResult> {
  const { rate, seconds, afterSeconds, size, connections } = options;
  const dir = mkdtempSync(join(tmpdir(), 'mcpulse-bench-soak-'));
  const db = join(dir, 'soak.db');
  const server = await spawnServer(
    CLI,
    ['serve', '--port', '0', '--db', db, '--no-rate-limit'],
    [],
    /dashboard\s+(http:\/\/\S+)/,
  );
  const latencies: { t: number; ms: number }[] = [];
  const t0 = performance.now();
  let loading = true;
  const reader = async (): Promise<void> => {
    while (loading) {
      const s = performance.now();
      const res = await fetch(`${server.url}/api/summary`, { headers: BENCH_HEADERS });
      await res.arrayBuffer();
      latencies.push({ t: s - t0, ms: performance.now() - s });
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  let exports = 0;
  /** A slow download: the export is read a chunk at a time with pauses, so it stays open. */
  const exporter = async (): Promise<void> => {
    while (loading) {
      const res = await fetch(`${server.url}/api/export`, { headers: BENCH_HEADERS });
      const body = res.body!.getReader();
      for (;;) {
        const { done } = await body.read();
        if (done) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      exports++;
    }
  };
  const samples: { t: number; wal: number; spool: number }[] = [];
  const spoolNow = async (): Promise<number> => {
    const res = await fetch(`${server.url}/api/spool`, { headers: BENCH_HEADERS });
    const body = (await res.json()) as { spool?: { pendingPayloads?: number } };
    return body.spool?.pendingPayloads ?? 0;
  };
  const sampler = setInterval(() => {
    void spoolNow().then((spool) =>
      samples.push({ t: (performance.now() - t0) / 1000, wal: walMiB(db), spool }),
    );
  }, 1000);
  const cpu0 = cpuSeconds(server.pid);
  const next = bodyFactory(size, 'soak');
  const readers = [reader(), reader(), exporter()];
  const load = await autocannon({
    url: `${server.url}/v1/ingest`,
    connections,
    duration: seconds,
    timeout: 10,
    overallRate: Math.max(1, Math.round(rate / size)),
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
  loading = false;
  await Promise.allSettled(readers);
  while ((await spoolNow()) > 0) await new Promise((r) => setTimeout(r, 100));
  const cpu = cpuSeconds(server.pid) - cpu0;
  const loadEnd = (performance.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, afterSeconds * 1000));
  clearInterval(sampler);
  const walAfterLoadMiB = walMiB(db);
  await server.stop();
  const walAfterCloseMiB = walMiB(db);
  const file = new Database(db, { readonly: true });
  const stored = (file.prepare('SELECT count(*) AS n FROM calls').get() as { n: number }).n;
  file.close();
  rmSync(dir, { recursive: true, force: true });

  const during = latencies
    .filter((l) => l.t / 1000 <= seconds)
    .map((l) => l.ms)
    .sort((a, b) => a - b);
  const result: SoakResult = {
    walPeakMiB: Math.max(0, ...samples.map((s) => s.wal)),
    walAfterLoadMiB,
    walAfterCloseMiB,
    summaryP50: pct(during, 0.5),
    summaryP99: pct(during, 0.99),
    summaryMax: during.at(-1) ?? NaN,
    stored,
    acked: load['2xx'] * size,
    cpuUsPerCall: (cpu * 1e6) / Math.max(1, stored),
  };
  console.log(
    `soak: ${fmt(rate)} payloads/s (${size}/request) for ${seconds} s, 2 summary readers + a slow export (${exports} completed), ` +
      `then ${afterSeconds} s idle; load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
  );
  console.log('\n| t (s) | WAL (MiB) | spooled payloads |');
  console.log('|---:|---:|---:|');
  for (const s of samples.filter((_, i) => i % 2 === 0))
    console.log(`| ${s.t.toFixed(0)} | ${s.wal.toFixed(1)} | ${fmt(s.spool)} |`);
  console.log(
    `\nload stopped and applied at ${loadEnd.toFixed(1)} s · WAL peak ${result.walPeakMiB.toFixed(1)} MiB · ` +
      `${afterSeconds} s after: ${walAfterLoadMiB.toFixed(1)} MiB · after SIGTERM: ${walAfterCloseMiB.toFixed(1)} MiB`,
  );
  console.log(
    `/api/summary during the load (${during.length} reads): p50 ${fmt(result.summaryP50, 1)} ms · ` +
      `p99 ${fmt(result.summaryP99, 1)} ms · max ${fmt(result.summaryMax, 1)} ms`,
  );
  console.log(
    `server CPU ${cpu.toFixed(1)} s for ${fmt(stored)} stored calls (${fmt(result.acked)} acknowledged): ` +
      `${result.cpuUsPerCall.toFixed(1)} µs per call, everything included (HTTP, acks, apply, readers, export)`,
  );
  return result;
}
