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
 * Applying is measured on one store, as a server runs: a first pass over the new store, then
 * `--rounds` more passes of `--requests` each, continuing the same sessions. The first pass
 * pays for compiling the store's code — its statements' closures and the maintainer are new
 * objects, so V8 optimizes them again on its compiler threads — which a server pays once in
 * its first seconds; the steady passes are what sustained load costs (issue 19's figure).
 *
 *   node --import tsx bench/ingest-parts.ts [--requests 1600] [--rounds 3]
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { examine } from '../src/ingest/examine.js';
import { createSpooledIngest, LiveBus } from '../src/ingest/index.js';
import { openStore, type Store } from '../src/store/index.js';
import { spoolVerdicts } from './ingest/spool-verdicts.js';
import { bodyFactory, fmt } from './ingest/util.js';
import { median } from './stats.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '1600' },
    rounds: { type: 'string', default: '3' },
  },
});
const REQUESTS = Number(values.requests);
const ROUNDS = Math.max(1, Number(values.rounds));
const SIZE = 30;
const PRODUCERS = 8;

const next = bodyFactory(SIZE, 'parts');
const contexts = Array.from({ length: PRODUCERS }, () => ({}) as Record<string, unknown>);
/** The next `REQUESTS` bodies, each producer's calls going on where its last body ended. */
const nextBodies = (): Buffer[] =>
  Array.from({ length: REQUESTS }, (_, i) => Buffer.from(next(contexts[i % PRODUCERS]!)));
const bodies = nextBodies();
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
/** CPU milliseconds the main thread has run so far (the scheduler's count, in ns). */
const mainThreadMs = (): number =>
  Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
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

/** What one pass measured: milliseconds, and bytes written. */
interface Pass {
  examine: number;
  spool: number;
  apply: number;
  applyCpu: number;
  applyMain: number;
  applyBytes: number;
}

/** Runs `passBodies` through examine, spool and apply, on a store that lives on. */
async function pass(store: Store, bus: LiveBus, passBodies: readonly Buffer[]): Promise<Pass> {
  let t0 = performance.now();
  const verdicts = passBodies.map((body) =>
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
  const ingest = createSpooledIngest({ store, bus, validated });
  t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadMs();
  const bytes0 = writtenBytes();
  while (ingest.state().pendingRequests > 0) await ingest.settle(60_000);
  const applyMs = performance.now() - t0;
  const applyCpu = cpuMs(cpu0);
  const applyMain = mainThreadMs() - main0;
  ingest.close();
  // Every byte the applied calls cost the disk, their checkpoints included: the checkpoint
  // worker has run by the time the next pass is spooled, and the last pass closes the store.
  const applyBytes = writtenBytes() - bytes0;
  return { examine: examineMs, spool: spoolMs, apply: applyMs, applyCpu, applyMain, applyBytes };
}

try {
  // Once to warm the JIT for the baseline, then measured as often as devtools' steady passes.
  baseline();
  const base = perPayload(median(Array.from({ length: ROUNDS }, baseline)));
  const store = openStore(join(dir, 'devtools.db'), {
    deferDerived: true,
    backgroundCheckpoints: true,
    ...(process.env.NOGUARD ? { walBytes: { soft: 1e12, hard: 1e12 } } : {}),
  });
  const bus = new LiveBus();
  const first = await pass(store, bus, bodies);
  const steady: Pass[] = [];
  for (let r = 0; r < ROUNDS; r++) steady.push(await pass(store, bus, nextBodies()));
  const closeBytes0 = writtenBytes();
  store.close();
  // Closing checkpoints what is left: charged to the last pass.
  steady.at(-1)!.applyBytes += writtenBytes() - closeBytes0;
  const of = (k: keyof Pass): number => perPayload(median(steady.map((p) => p[k])));
  const each = (k: keyof Pass): string =>
    steady.map((p) => perPayload(p[k]).toFixed(2)).join(' · ');
  const rows: [string, number, string][] = [
    ['bare baseline: parse + insert (index-free table) + commit', base, ''],
    [
      'devtools, before the answer: examine (UTF-8, parse, key, validate)',
      of('examine'),
      each('examine'),
    ],
    [
      'devtools, before the answer: spool the body (group of 4 per commit)',
      of('spool'),
      each('spool'),
    ],
    ['devtools, after the answer: apply (store, indexes, facts)', of('apply'), each('apply')],
    [
      '…the same apply, CPU time (all threads) instead of wall clock',
      of('applyCpu'),
      each('applyCpu'),
    ],
    ['…of which the main thread', of('applyMain'), each('applyMain')],
    [
      'first pass over the new store: apply, CPU time (all threads)',
      perPayload(first.applyCpu),
      `main thread ${perPayload(first.applyMain).toFixed(2)}`,
    ],
  ];
  console.log(
    `ingest parts: ${fmt(REQUESTS)} requests × ${SIZE} calls from ${PRODUCERS} sessions per pass, ` +
      `in-process, one store: a first pass, then the median of ${ROUNDS} more (the baseline's too); ` +
      `load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}\n`,
  );
  console.log('| step | µs per payload | payloads/s on one core | each pass after the first |');
  console.log('|---|---:|---:|---|');
  for (const [name, us, detail] of rows)
    console.log(`| ${name} | ${us.toFixed(2)} | ${fmt(1e6 / us)} | ${detail} |`);
  console.log(
    `\napplying wrote ${fmt(median(steady.map((p) => p.applyBytes)) / (REQUESTS * SIZE))} bytes per payload (WAL frames and their checkpoints)`,
  );
  const ack = of('examine') + of('spool');
  console.log(
    `\nacknowledging costs ${(ack / base).toFixed(2)}× the baseline's work; applying ${(of('apply') / base).toFixed(1)}×`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
