/**
 * Does anything wait on a read? (issue 39.) The "done when": a file of 300,000 calls
 * over 30 days plus 2,000 one-call projects, served by `serve --no-rate-limit`, while an export
 * of everything, one client's summary and one tool's failing calls by error loop back to back,
 * a 1-call ingest POST every 50 ms and `/api/summary` every 0.5 s (and `/api/status` every
 * 0.2 s) are timed. Run twice on copies of the same file: with read threads (the default) and
 * with `--read-threads 0` — every read on the ingest thread, as before — the baseline.
 * Afterwards every acknowledged payload must be stored.
 *
 *   node --import tsx bench/read-isolation.ts [--seconds 60] [--calls 300000] [--db PATH]
 *
 * `--db PATH` seeds into PATH once and reuses it.
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createIngest, LiveBus } from '../src/ingest/index.js';
import { openStore } from '../src/store/index.js';
import { BENCH_HEADERS, CLI, ensureBuilt, rssMiB, spawnServer } from './ingest/util.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    calls: { type: 'string', default: '300000' },
    db: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const CALLS = Number(values.calls);
const PROJECTS = 2_000;
const DAY = 86_400_000;
const T0 = Date.now() - 30 * DAY;
const TOOLS = ['search_docs', 'fetch_page', 'list_files', 'read_file', 'write_file', 'run_query'];
const CLIENTS = ['claude-code', 'cursor', 'windsurf'];

function call(i: number, session: string) {
  return {
    v: 1,
    type: 'call',
    session_id: session,
    client_name: CLIENTS[i % 3],
    tool_name: TOOLS[i % TOOLS.length],
    started_at: new Date(T0 + Math.floor((i / CALLS) * 30 * DAY)).toISOString(),
    duration_ms: 5 + (i % 400),
    outcome:
      i % 9 === 0 ? 'tool_error' : i % 31 === 0 ? 'crashed' : i % 23 === 0 ? 'bad_args' : 'ok',
    response_bytes: 200 + (i % 5000),
    is_empty: i % 17 === 0,
    args_hash: (i % 9973).toString(16).padStart(12, '0'),
  };
}

/** The file: 300,000 calls of one project in sessions of 50, and 2,000 one-call projects. */
function seed(path: string): void {
  const started = performance.now();
  const store = openStore(path);
  const ingest = createIngest({ store, bus: new LiveBus() });
  const post = (key: string, batch: unknown[]): void => {
    const answer = ingest({
      authorization: `Bearer ${key}`,
      contentType: 'application/json',
      userAgent: 'bench',
      body: Buffer.from(JSON.stringify({ batch })),
      receivedMs: Date.now(),
    });
    if (answer.status !== 202) throw new Error(`seed: ${answer.status}`);
  };
  for (let i = 0; i < CALLS; i += 500)
    post(
      'mp_live_bench_reads',
      Array.from({ length: Math.min(500, CALLS - i) }, (_, j) =>
        call(i + j, `s${Math.floor((i + j) / 50)}`),
      ),
    );
  for (let p = 0; p < PROJECTS; p++) post(`mp_live_bench_p${p}`, [call(p, `p${p}`)]);
  store.close();
  process.stderr.write(
    `seeded ${path} in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
  );
}

const pct = (xs: number[], p: number): number => {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/** Runs `fn` back to back until `until`; returns how many finished. */
async function loop(until: number, fn: () => Promise<void>): Promise<number> {
  let n = 0;
  while (Date.now() < until) {
    await fn().catch(() => undefined);
    n++;
  }
  return n;
}

/** Runs `fn` every `everyMs` until `until`, each on its own (a slow one does not delay the next). */
async function every(until: number, everyMs: number, fn: () => Promise<void>): Promise<void> {
  const pending: Promise<void>[] = [];
  while (Date.now() < until) {
    pending.push(fn().catch(() => undefined));
    await new Promise((r) => setTimeout(r, everyMs));
  }
  await Promise.all(pending);
}

interface Result {
  mode: string;
  ingest: number[];
  summary: number[];
  status: number[];
  acknowledged: number;
  stored: boolean;
  loops: { exports: number; clientSummaries: number; errorGroups: number };
  rssMiB: number;
}

async function run(file: string, mode: string, extra: string[]): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpulse-bench-reads-'));
  const db = join(dir, 'devtools.db');
  copyFileSync(file, db);
  const args = ['serve', '--port=0', `--db=${db}`, '--no-rate-limit', ...extra];
  const server = await spawnServer(CLI, args);
  const get = async (path: string): Promise<number> => {
    const t = performance.now();
    const res = await fetch(`${server.url}${path}`, { headers: BENCH_HEADERS });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path} → ${res.status}`);
    return performance.now() - t;
  };
  const result: Result = {
    mode,
    ingest: [],
    summary: [],
    status: [],
    acknowledged: 0,
    stored: false,
    loops: { exports: 0, clientSummaries: 0, errorGroups: 0 },
    rssMiB: 0,
  };
  // Warm: the first read of each view loads its pages (both modes alike).
  await get('/api/summary');
  const until = Date.now() + SECONDS * 1000;
  let seq = 0;
  let peakRss = 0;
  const rss = setInterval(() => (peakRss = Math.max(peakRss, rssMiB(server.pid))), 500);
  const [exports, clientSummaries, errorGroups] = await Promise.all([
    loop(until, async () => void (await get('/api/export?format=jsonl'))),
    loop(until, async () => void (await get('/api/summary?client=cursor'))),
    loop(until, async () => void (await get('/api/tools/search_docs/errors'))),
    every(until, 50, async () => {
      const t = performance.now();
      const res = await fetch(`${server.url}/v1/ingest`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: 'Bearer mp_live_bench_reads',
        },
        // Now, not 30 days back: a call older than the hosted API keeps is refused (202, with
        // the item on the refusal log), which would read here as a lost payload.
        body: JSON.stringify({
          batch: [{ ...call(seq++, 'probe'), started_at: new Date().toISOString() }],
        }),
      });
      await res.arrayBuffer();
      result.ingest.push(performance.now() - t);
      if (res.status === 202 && res.headers.get('x-mcpulse-rejected') === '0')
        result.acknowledged++;
    }),
    every(until, 500, async () => void result.summary.push(await get('/api/summary'))),
    every(until, 200, async () => void result.status.push(await get('/api/status'))),
  ]);
  clearInterval(rss);
  result.loops = { exports, clientSummaries, errorGroups };
  result.rssMiB = peakRss;
  // Acknowledged payloads wait in the spool until applied; the count is taken once they are.
  for (;;) {
    const res = await fetch(`${server.url}/api/spool`, { headers: BENCH_HEADERS });
    const { spool } = (await res.json()) as { spool: { pendingPayloads: number } | null };
    if (!spool || spool.pendingPayloads === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.stop();
  const check = new Database(db, { readonly: true });
  const probes = check
    .prepare("SELECT count(*) FROM calls WHERE session_id = 'probe'")
    .pluck()
    .get() as number;
  check.close();
  result.stored = probes === result.acknowledged;
  if (!result.stored)
    process.stderr.write(`${mode}: ${result.acknowledged} acknowledged, ${probes} stored\n`);
  rmSync(dir, { recursive: true, force: true });
  return result;
}

ensureBuilt();
const work = mkdtempSync(join(tmpdir(), 'mcpulse-bench-seed-'));
const file = values.db ?? join(work, 'seed.db');
if (!existsSync(file)) seed(file);
const load = loadavg()[0]!.toFixed(1);
const results = [
  await run(file, 'read threads (default)', []),
  await run(file, 'baseline: --read-threads 0', ['--read-threads', '0']),
];
rmSync(work, { recursive: true, force: true });

const f = (ms: number): string =>
  Number.isNaN(ms) ? '—' : ms < 10 ? ms.toFixed(1) : ms.toFixed(0);
process.stdout.write(
  `\n${CALLS.toLocaleString('en')} calls over 30 days + ${PROJECTS} one-call projects, ${SECONDS} s, ` +
    `export + one client's summary + one tool's error groups looping (load ${load} at start)\n\n`,
);
process.stdout.write(
  '| mode | ingest p50 / p99 / max ms | /api/summary p50 / p99 ms | /api/status p99 ms | acked = stored | exports / client summaries / error groups done | peak RSS MiB |\n|---|---|---|---|---|---|---|\n',
);
for (const r of results) {
  process.stdout.write(
    `| ${r.mode} | ${f(pct(r.ingest, 50))} / ${f(pct(r.ingest, 99))} / ${f(Math.max(...r.ingest))} | ` +
      `${f(pct(r.summary, 50))} / ${f(pct(r.summary, 99))} | ${f(pct(r.status, 99))} | ` +
      `${r.acknowledged} ${r.stored ? '= stored' : '≠ STORED'} | ` +
      `${r.loops.exports} / ${r.loops.clientSummaries} / ${r.loops.errorGroups} | ${r.rssMiB.toFixed(0)} |\n`,
  );
}
process.stdout.write(
  '\ntargets (issue 39): ingest p99 ≤ 50 ms, /api/summary p99 ≤ 500 ms, every acknowledged payload stored\n',
);
