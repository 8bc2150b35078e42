/**
 * What applying a call costs in a big file: the same SDK-shaped 30-call requests as
 * bench/ingest-parts.ts, spooled and applied in-process into a *copy* of a file seeded by
 * `bench/metrics.ts --db PATH` — into its busy project, with its tools, dated just after its
 * newest call, as an overnight eval harness would add them.
 *
 * Two figures per run, both for the same requests:
 *
 * - CPU per applied call (every thread: the applier and the checkpointer), wall clock beside,
 *   on a second pass into the same store (the first pays for compiling its code);
 * - the pages applying wrote, in slices of a fixed size: WAL frames per call and the distinct
 *   pages behind them, by table or index. Unlike time, these do not move with the host's
 *   speed, so two builds compare exactly (checkpoints off for this part, so the WAL holds
 *   every frame written).
 *
 *   node --import tsx bench/metrics.ts --db /tmp/m1.db            # seed once (~2 min)
 *   node --import tsx bench/ingest-at-scale.ts --db /tmp/m1.db [--requests 1600]
 */
import Database from 'better-sqlite3';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { examine } from '../src/ingest/examine.js';
import { createSpooledIngest, LiveBus } from '../src/ingest/index.js';
import { connectionOf } from '../src/store/connection.js';
import { openStore, type Store } from '../src/store/index.js';
import { spoolVerdicts } from './ingest/spool-verdicts.js';
import { bodyFactory, fmt } from './ingest/util.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    requests: { type: 'string', default: '1600' },
  },
});
if (!values.db) throw new Error('--db PATH: a file seeded by bench/metrics.ts --db PATH');
const SEEDED = values.db;
const REQUESTS = Number(values.requests);
const SIZE = 30;
const CALLS = REQUESTS * SIZE;
/** Calls per slice in the pages part. */
const SLICE_CALLS = 2_400;
/** bench/metrics.ts's project key and tool names. */
const KEY = 'mp_live_bench';

const seeded = new Database(SEEDED, { readonly: true });
const newest = seeded.prepare('SELECT max(started_ms) FROM calls').pluck().get() as number;
const tools = seeded
  .prepare('SELECT DISTINCT tool_name FROM metrics_latency WHERE project_id = 1 AND tool_name <> ?')
  .pluck()
  .all('') as string[];
const seededCalls = seeded.prepare('SELECT count(*) FROM calls').pluck().get() as number;
seeded.close();

/** The bodies, moved to the seeded project's tools and to the hour after its newest call. */
function bodies(): Buffer[] {
  const next = bodyFactory(SIZE, `scale${Date.now().toString(36)}`);
  const contexts = Array.from({ length: 8 }, () => ({}) as Record<string, unknown>);
  const shift = newest + 3_600_000 - Date.UTC(2026, 11, 2, 9);
  let n = 0;
  return Array.from({ length: REQUESTS }, (_, i) =>
    Buffer.from(
      next(contexts[i % 8]!)
        .replace(/"tool_name":"[^"]*"/g, () => `"tool_name":"${tools[(n++ * 7) % tools.length]}"`)
        .replace(
          /"started_at":"([^"]*)"/g,
          (_m, t: string) => `"started_at":"${new Date(Date.parse(t) + shift).toISOString()}"`,
        ),
    ),
  );
}

/** Spools the requests as the group commit does; returns what they were validated into. */
function spool(store: Store) {
  const verdicts = bodies().map((body) =>
    examine({
      authorization: `Bearer ${KEY}`,
      contentType: 'application/json',
      userAgent: 'bench',
      body,
      receivedMs: Date.now(),
    }),
  );
  return spoolVerdicts(store, verdicts);
}

/** Removes a scratch copy and its WAL. */
const remove = (file: string) => {
  for (const s of ['', '-wal', '-shm']) rmSync(`${file}${s}`, { force: true });
};

/** CPU and wall clock per call of one pass, applied as the server does (checkpoints in a worker). */
async function applyPass(store: Store): Promise<{ cpu: number; wall: number }> {
  const ingest = createSpooledIngest({ store, bus: new LiveBus(), validated: spool(store) });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  while (ingest.state().pendingRequests > 0) await ingest.settle(120_000);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  ingest.close();
  return { cpu: (cpu.user + cpu.system) / CALLS, wall: (wall * 1000) / CALLS };
}

/**
 * Two passes into one copy, as a running server applies them: the first pays for V8 compiling
 * the new store's code on its helper threads (a server's first seconds), the second is what
 * sustained load costs (bench/ingest-parts.ts says more).
 */
async function timed(): Promise<{
  first: { cpu: number; wall: number };
  steady: { cpu: number; wall: number };
}> {
  const file = `${SEEDED}.scale-timed`;
  copyFileSync(SEEDED, file);
  try {
    const store = openStore(file, { deferDerived: true, backgroundCheckpoints: true });
    const first = await applyPass(store);
    const steady = await applyPass(store);
    store.close();
    return { first, steady };
  } finally {
    remove(file);
  }
}

/** WAL frames applying wrote, by the table or index owning each page. */
async function pages(): Promise<{
  frames: number;
  distinct: number;
  byOwner: [string, number, number][];
}> {
  const file = `${SEEDED}.scale-pages`;
  copyFileSync(SEEDED, file);
  try {
    const store = openStore(file, { deferDerived: true, backgroundCheckpoints: false });
    const db = connectionOf(store);
    const validated = spool(store);
    // From an empty WAL, nothing checkpointed while applying: every frame written stays. Slices
    // of a fixed size (the server sizes them by time, which would tie the count to the host's
    // speed): what a 40 ms slice holds on a fresh file.
    db.pragma('wal_autocheckpoint = 0');
    db.pragma('wal_checkpoint(TRUNCATE)');
    while (store.spool.apply(SLICE_CALLS, (r) => validated.take(r)!).length > 0);
    const inProject = db.prepare('SELECT count(*) FROM calls WHERE project_id = 1').pluck().get();
    if (inProject !== seededCalls + CALLS)
      throw new Error(`the calls went to another project (${String(inProject)} in the seeded one)`);
    const wal = readFileSync(`${file}-wal`);
    const pageSize = wal.readUInt32BE(8);
    const perPage = new Map<number, number>();
    for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
      const page = wal.readUInt32BE(at);
      perPage.set(page, (perPage.get(page) ?? 0) + 1);
    }
    const owner = new Map<number, string>();
    for (const r of db.prepare('SELECT name, pageno FROM dbstat').all() as {
      name: string;
      pageno: number;
    }[])
      owner.set(r.pageno, r.name);
    db.pragma('wal_autocheckpoint = 1000');
    store.close();
    const by = new Map<string, [number, number]>();
    let frames = 0;
    for (const [page, n] of perPage) {
      frames += n;
      const name = owner.get(page) ?? '(free or new)';
      const e = by.get(name) ?? [0, 0];
      e[0] += n;
      e[1]++;
      by.set(name, e);
    }
    return {
      frames,
      distinct: perPage.size,
      byOwner: [...by].map(([k, [f, d]]): [string, number, number] => [k, f, d]),
    };
  } finally {
    remove(file);
  }
}

const t = await timed();
const p = await pages();
console.log(
  `applying ${fmt(CALLS)} calls (${fmt(REQUESTS)} requests of ${SIZE}) into a copy of ${SEEDED} ` +
    `(${fmt(seededCalls)} calls, ${tools.length} tools), load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}\n`,
);
console.log(
  `CPU per applied call (every thread), a running server's second pass: ${t.steady.cpu.toFixed(1)} µs; ` +
    `wall clock ${t.steady.wall.toFixed(1)} µs (the store's first pass: ${t.first.cpu.toFixed(1)} µs CPU)`,
);
console.log(
  `WAL frames written: ${(p.frames / CALLS).toFixed(2)} per call; distinct pages ${fmt(p.distinct)}\n`,
);
console.log('| table or index | frames | distinct pages |');
console.log('| --- | ---: | ---: |');
for (const [name, f, d] of p.byOwner.sort((a, b) => b[1] - a[1]).slice(0, 12))
  console.log(`| ${name} | ${fmt(f)} | ${fmt(d)} |`);
