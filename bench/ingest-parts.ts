/**
 * Where an ingest request's time goes, in-process (no HTTP, which costs every server the same),
 * per payload, on the SDK-shaped 30-call bodies bench/ingest.ts sends — side by side with the
 * bare baseline's work in the same run:
 *
 * - baseline: `JSON.parse` + one insert per call into an index-free table, one transaction;
 * - examine: what devtools does before answering (UTF-8 check, parse, key, every item validated);
 * - spool: appending the bodies to the spool, one transaction per group of 4 requests;
 * - apply: what the spool does afterwards (the records validated before the answer, or the body
 *   validated again after a restart; store with indexes, derived facts).
 *
 *   node --import tsx bench/ingest-parts.ts [--requests 4000]
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { examine } from '../src/ingest/examine.js';
import { createSpooledIngest, LiveBus } from '../src/ingest/index.js';
import { openStore } from '../src/store/index.js';
import { spoolVerdicts } from './ingest/spool-verdicts.js';
import { bodyFactory, fmt } from './ingest/util.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '4000' } } });
const REQUESTS = Number(values.requests);
const SIZE = 30;
const PRODUCERS = 8;

const next = bodyFactory(SIZE, 'parts');
const contexts = Array.from({ length: PRODUCERS }, () => ({}) as Record<string, unknown>);
const bodies = Array.from({ length: REQUESTS }, (_, i) => Buffer.from(next(contexts[i % 8]!)));
const dir = mkdtempSync(join(tmpdir(), 'mcpulse-bench-parts-'));
const perPayload = (ms: number): number => (ms * 1000) / (REQUESTS * SIZE);
/** Bytes this process has written through write(2) so far (every thread: WAL, checkpoints). */
const writtenBytes = (): number =>
  Number(/^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? NaN);
/** CPU milliseconds (user + system, every thread of this process) since `from`. */
const cpuMs = (from: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
};

let baselines = 0;
function baseline(): number {
  const db = new Database(join(dir, `baseline-${baselines++}.db`));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE calls (id INTEGER PRIMARY KEY, session_id TEXT, client_name TEXT,
    tool_name TEXT, started_at TEXT, duration_ms INTEGER, outcome TEXT, response_bytes INTEGER,
    is_empty INTEGER, args_hash TEXT)`);
  const insert = db.prepare(
    `INSERT INTO calls (session_id, client_name, tool_name, started_at, duration_ms, outcome,
       response_bytes, is_empty, args_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  type Call = Record<string, string | number | boolean>;
  const all = db.transaction((batch: Call[]) => {
    for (const c of batch)
      insert.run(
        c.session_id,
        c.client_name,
        c.tool_name,
        c.started_at,
        c.duration_ms,
        c.outcome,
        c.response_bytes,
        c.is_empty ? 1 : 0,
        c.args_hash,
      );
  });
  const t0 = performance.now();
  for (const b of bodies) all((JSON.parse(b.toString('utf8')) as { batch: Call[] }).batch);
  const ms = performance.now() - t0;
  db.close();
  return ms;
}

async function devtools(file: string): Promise<{
  examine: number;
  spool: number;
  apply: number;
  applyCpu: number;
  applyBytes: number;
}> {
  const store = openStore(join(dir, file), {
    deferDerived: true,
    backgroundCheckpoints: true,
    ...(process.env.NOGUARD ? { walBytes: { soft: 1e12, hard: 1e12 } } : {}),
  });
  let t0 = performance.now();
  const verdicts = bodies.map((body) =>
    examine({
      authorization: 'Bearer mp_live_bench_key_0000000000000000',
      contentType: 'application/json',
      userAgent: 'bench',
      body,
      receivedMs: Date.now(),
    }),
  );
  const examineMs = performance.now() - t0;
  t0 = performance.now();
  // As the group commit does: spool the bodies, keep their validated records for applying.
  const validated = spoolVerdicts(store, verdicts);
  const spoolMs = performance.now() - t0;
  const ingest = createSpooledIngest({ store, bus: new LiveBus(), validated });
  t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const bytes0 = writtenBytes();
  while (ingest.state().pendingRequests > 0) await ingest.settle(60_000);
  const applyMs = performance.now() - t0;
  const applyCpu = cpuMs(cpu0);
  ingest.close();
  store.close();
  // Closing checkpoints what is left: every byte the applied calls cost the disk is counted.
  const applyBytes = writtenBytes() - bytes0;
  return { examine: examineMs, spool: spoolMs, apply: applyMs, applyCpu, applyBytes };
}

try {
  // Once to warm the JIT, once measured.
  baseline();
  await devtools('warm.db');
  const base = perPayload(baseline());
  const dev = await devtools('devtools.db');
  const rows: [string, number][] = [
    ['bare baseline: parse + insert (index-free table) + commit', base],
    ['devtools, before the answer: examine (UTF-8, parse, key, validate)', perPayload(dev.examine)],
    ['devtools, before the answer: spool the body (group of 4 per commit)', perPayload(dev.spool)],
    ['devtools, after the answer: apply (store, indexes, facts)', perPayload(dev.apply)],
    ['…the same apply, CPU time (all threads) instead of wall clock', perPayload(dev.applyCpu)],
  ];
  console.log(
    `ingest parts: ${fmt(REQUESTS)} requests × ${SIZE} calls from ${PRODUCERS} sessions, in-process, ` +
      `load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}\n`,
  );
  console.log('| step | µs per payload | payloads/s on one core |');
  console.log('|---|---:|---:|');
  for (const [name, us] of rows) console.log(`| ${name} | ${us.toFixed(2)} | ${fmt(1e6 / us)} |`);
  console.log(
    `\napplying wrote ${fmt(dev.applyBytes / (REQUESTS * SIZE))} bytes per payload (WAL frames and their checkpoints)`,
  );
  const ack = perPayload(dev.examine) + perPayload(dev.spool);
  console.log(
    `\nacknowledging costs ${(ack / base).toFixed(2)}× the baseline's work; applying ${(perPayload(dev.apply) / base).toFixed(1)}×`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
