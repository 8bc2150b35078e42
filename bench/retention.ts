/**
 * What a retention pass costs, in-process, per deleted call — beside a bare baseline in the
 * same run: the same calls deleted from a copy of the same file by plain
 * `DELETE … ORDER BY id LIMIT 500` transactions, which pay for the rows and their indexes and
 * nothing else (no rollups kept exact, no runs planned, no totals counted).
 *
 * Two shapes of the same SDK-shaped 30-call flushes (bench/ingest.ts's bodies):
 * - short sessions: every flush its own session, as a flood through autocannon sends them;
 * - long sessions: 8 sessions that never pause for 30 s (a load test through the proxy), so
 *   every cut is forced — cut inside a run.
 *
 * Both are seeded by applying the flushes as the server does, then one pass deletes all but
 * `--cap` calls. Figures: CPU per deleted call (the main thread's work; a pass rests as long as
 * each step took, so its wall clock is about twice that), steps, the longest step (how long an
 * ingest request can wait behind retention), forced cuts and what was left to rebuild.
 *
 *   node --import tsx bench/retention.ts [--calls 300000] [--cap 1000]
 */
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { examine } from '../src/ingest/examine.js';
import { createSpooledIngest, LiveBus } from '../src/ingest/index.js';
import { connectionOf } from '../src/store/connection.js';
import { openStore, type Store } from '../src/store/index.js';
import { createRetention, writeRetentionSettings } from '../src/store/retention/index.js';
import { spoolVerdicts } from './ingest/spool-verdicts.js';
import { bodyFactory, fmt } from './ingest/util.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '300000' },
    cap: { type: 'string', default: '1000' },
  },
});
const REQUESTS = Math.ceil(Number(values.calls) / 30);
const CAP = Number(values.cap);
const CHUNK = 500;

type Shape = 'short sessions' | 'long sessions';

/** Applies the shape's flushes into a new store as the server does (spooled, then applied). */
async function seed(store: Store, shape: Shape): Promise<void> {
  const next = bodyFactory(30, shape === 'short sessions' ? 's' : 'l');
  const sessions = Array.from({ length: 8 }, () => ({}) as Record<string, unknown>);
  for (let done = 0; done < REQUESTS; done += 2_000) {
    const verdicts = Array.from({ length: Math.min(2_000, REQUESTS - done) }, (_, i) =>
      examine({
        authorization: 'Bearer mp_live_bench_retention',
        contentType: 'application/json',
        userAgent: 'bench',
        // A fresh context is a new session per flush; one of 8 kept contexts continues one.
        body: Buffer.from(next(shape === 'short sessions' ? {} : sessions[(done + i) % 8]!)),
        receivedMs: Date.now(),
      }),
    );
    const ingest = createSpooledIngest({
      store,
      bus: new LiveBus(),
      validated: spoolVerdicts(store, verdicts),
    });
    while (ingest.state().pendingRequests > 0) await ingest.settle(120_000);
    ingest.close();
  }
  store.flushDerived();
}

const cpuSince = (start: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(start);
  return u.user + u.system;
};

/** The bare baseline: the same number of oldest calls, deleted in plain 500-row transactions. */
function bare(file: string, deleteCount: number): { usPerCall: number } {
  const db = new Database(file);
  // Bare: without the metrics engine's deletion trigger either.
  for (const { name } of db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'trigger'")
    .all())
    db.exec(`DROP TRIGGER "${name}"`);
  const step = db.prepare(
    'DELETE FROM calls WHERE id IN (SELECT id FROM calls ORDER BY id LIMIT ?)',
  );
  const run = db.transaction((n: number) => step.run(n).changes);
  const cpu0 = process.cpuUsage();
  let left = deleteCount;
  while (left > 0) left -= run(Math.min(CHUNK, left));
  const usPerCall = cpuSince(cpu0) / deleteCount;
  db.close();
  return { usPerCall };
}

async function measure(shape: Shape) {
  const dir = mkdtempSync(join(tmpdir(), 'mcpulse-bench-retention-'));
  try {
    const file = join(dir, 'devtools.db');
    const store = openStore(file, { deferDerived: true, backgroundCheckpoints: true });
    await seed(store, shape);
    const db = connectionOf(store);
    const seeded = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM calls').get()!.n;
    // Until the WAL is empty: a checkpoint the background checkpointer is running answers
    // busy, and a copy taken then is torn (SQLITE_CORRUPT when the baseline opens it).
    type Checkpoint = { busy: number; log: number };
    while ((db.pragma('wal_checkpoint(TRUNCATE)') as Checkpoint[]).some((c) => c.busy || c.log))
      await new Promise((r) => setTimeout(r, 10));
    copyFileSync(file, join(dir, 'bare.db'));

    writeRetentionSettings(db, { max_calls: CAP, max_age_days: 3_650 });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const report = await createRetention(store, { chunkRows: CHUNK }).runPass();
    const wallS = (performance.now() - t0) / 1000;
    const usPerCall = cpuSince(cpu0) / Math.max(1, report.deleted.calls);
    const dirty = db.prepare('SELECT count(*) AS n FROM metrics_dirty').get() as { n: number };
    store.close();
    if (report.error) throw new Error(`pass failed: ${report.error}`);
    const base = bare(join(dir, 'bare.db'), report.deleted.calls);
    return { shape, seeded, report, wallS, usPerCall, base, leftDirty: dirty.n };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows = [];
for (const shape of ['short sessions', 'long sessions'] as const) rows.push(await measure(shape));

console.log(
  `\nretention bench: ${fmt(REQUESTS * 30)} calls seeded, a pass down to ${fmt(CAP)}, steps of ≤ ${CHUNK} calls, node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} on 2 CPUs, ${new Date().toISOString()}\n`,
);
console.log(
  '| shape | deleted | devtools CPU per deleted call | bare DELETE per call | × bare | steps | longest step | forced cuts | pass wall clock | left to rebuild |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  console.log(
    `| ${r.shape} | ${fmt(r.report.deleted.calls)} | ${r.usPerCall.toFixed(1)} µs | ${r.base.usPerCall.toFixed(1)} µs | ${(r.usPerCall / r.base.usPerCall).toFixed(1)}× | ${fmt(r.report.steps)} | ${r.report.longest_step_ms.toFixed(0)} ms | ${fmt(r.report.forced_cuts)} | ${r.wallS.toFixed(1)} s | ${r.leftDirty} |`,
  );
}
