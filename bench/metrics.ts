/**
 * The metrics engine at scale: 1,000,000 calls over 5,000 sessions and 40 tools, then the
 * dashboard's heaviest reads timed through the real route handlers (store query + pure fold +
 * JSON), each beside a bare `SELECT tool_name, count(*) FROM calls GROUP BY tool_name` over the
 * same table in the same run.
 *
 *   node --import tsx bench/metrics.ts            # ~1.5 min (seeding dominates)
 *   node --import tsx bench/metrics.ts --calls 200000
 *   node --import tsx bench/metrics.ts --calls 10000000 --db /tmp/m10.db   # keep it, reuse it
 *
 * `--db PATH` seeds into PATH and keeps it; a later run on the same PATH skips seeding and the
 * live ingest (opening it runs any newer migration's backfill, which is timed) and only times
 * the queries. `--no-check` skips the rebuild that proves incremental = rebuild (minutes at 10M).
 *
 * Seeding: raw rows in big transactions, then the same full rebuild migration 002 runs
 * (src/store/metrics/sql.ts), so every derived column and rollup is exactly what ingest keeps.
 * Then 30,000 more calls go through the store's real writer (30 per request, some late and
 * out of order) to time ingest with maintenance, and the run fails unless the incrementally
 * kept rollups equal a fresh rebuild. Prints a Markdown table for docs/benchmarks.md.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseFilter } from '../src/api/params.js';
import { handlers } from '../src/api/handlers.js';
import type { ApiContext, ApiHandler } from '../src/api/types.js';
import type { ApiName } from '../src/shared/api-routes.js';
import { openStore } from '../src/store/index.js';
import { rebuildAllMetrics } from '../src/store/metrics/rebuild-all.js';
import type { BatchRecord } from '../src/store/batch-record.js';
import { connectionOf } from '../src/store/connection.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CALLS = arg('calls', 1_000_000);
const SESSIONS = arg('sessions', 5_000);
const TOOLS = arg('tools', 40);
const LIVE_CALLS = arg('live', 30_000);
const RUNS = arg('runs', 9);
/** Runs of the bare GROUP BY per row (seconds each at 10M calls). */
const BARE_RUNS = arg('bare-runs', RUNS);

let seed = 42;
const rnd = (): number => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 4294967296;
};
const logNormal = (median: number, spread: number): number =>
  Math.max(0, Math.round(median * Math.exp(spread * (rnd() + rnd() + rnd() - 1.5) * 1.6)));

const dbArg = process.argv.indexOf('--db');
const keptPath = dbArg > 0 ? process.argv[dbArg + 1]! : null;
const reuse = keptPath !== null && existsSync(keptPath);
const dir = keptPath ? null : mkdtempSync(join(os.tmpdir(), 'mcpulse-bench-metrics-'));
const tOpen0 = performance.now();
const store = openStore(keptPath ?? join(dir!, 'bench.db'));
const tOpen = performance.now() - tOpen0;
const db = connectionOf(store);
const tools = Array.from({ length: TOOLS }, (_, i) => `tool_${String(i).padStart(2, '0')}`);
const clients = ['claude-code', 'cursor', 'vscode'];
const hashPool = (tool: number, k: number): string =>
  k < 0 ? '000000000000' : createHash('sha1').update(`${tool}:${k}`).digest('hex').slice(0, 12);
const OUTCOMES = [
  'ok',
  'ok',
  'ok',
  'ok',
  'ok',
  'ok',
  'ok',
  'ok',
  'ok',
  'ok',
  'ok',
  'ok',
  'ok',
  'ok',
  'ok',
  'bad_args',
  'tool_error',
  'crashed',
];
const START = Date.UTC(2026, 10, 1);
const SPAN_DAYS = 30;

/** One synthetic call: skewed tool choice, runs of the same tool, a few unhashable args. */
function* generate(sessions: number, perSession: number) {
  for (let s = 0; s < sessions; s++) {
    const sessionId = `s_${s.toString(16).padStart(12, '0')}`;
    const client = clients[s % clients.length]!;
    let t = START + Math.floor(rnd() * SPAN_DAYS * 86_400_000);
    let tool = 0;
    for (let i = 0; i < perSession; i++) {
      const r = rnd();
      t +=
        r < 0.5
          ? Math.floor(rnd() * 4000)
          : r < 0.9
            ? Math.floor(rnd() * 30_000)
            : Math.floor(rnd() * 600_000);
      if (rnd() > 0.35) tool = Math.floor(rnd() * rnd() * TOOLS);
      const h = rnd();
      const outcome = OUTCOMES[Math.floor(rnd() * OUTCOMES.length)]!;
      yield {
        sessionId,
        client,
        tool: tools[tool]!,
        t,
        duration: logNormal(60 + tool * 8, 2),
        outcome,
        bytes: outcome === 'crashed' ? 0 : logNormal(800 + tool * 200, 3),
        empty: outcome === 'ok' && rnd() < 0.06,
        hash: hashPool(tool, h < 0.02 ? -1 : Math.floor(h * 4)),
      };
    }
  }
}

const keySha = createHash('sha256').update('mp_live_bench').digest('hex');
/** Raw rows in 100,000-row transactions, then one startup per session. */
const perSession = Math.round(CALLS / SESSIONS);
function seedRaw(): void {
  db.prepare(
    'INSERT INTO projects (id, key_sha256, key_prefix, first_seen_ms, last_seen_ms) VALUES (1, ?, ?, 0, 0)',
  ).run(keySha, 'mp_live_benc');
  db.prepare(
    'INSERT INTO batches (id, project_id, received_ms, status, accepted, rejected, body_bytes) VALUES (1, 1, 0, 202, 0, 0, 0)',
  ).run();
  const insertCall = db.prepare(
    `INSERT INTO calls (project_id, batch_id, session_id, client_name, tool_name, started_at, started_ms, duration_ms,
     outcome, response_bytes, is_empty, args_hash, received_ms) VALUES (1, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertStartup = db.prepare(
    'INSERT INTO startups (project_id, batch_id, session_id, client_name, received_ms) VALUES (1, 1, ?, ?, 0)',
  );
  const insertTool = db.prepare(
    'INSERT INTO startup_tools (startup_id, position, name, schema_bytes) VALUES (?, ?, ?, ?)',
  );
  const schemaBytes = tools.map((_, i) => 200 + ((i * 137) % 900));
  let batch: Parameters<typeof insertCall.run>[] = [];
  const flush = db.transaction((rows: Parameters<typeof insertCall.run>[]) => {
    for (const r of rows) insertCall.run(...r);
  });
  for (const c of generate(SESSIONS, perSession)) {
    batch.push([
      c.sessionId,
      c.client,
      c.tool,
      new Date(c.t).toISOString(),
      c.t,
      c.duration,
      c.outcome,
      c.bytes,
      c.empty ? 1 : 0,
      c.hash,
      c.t,
    ]);
    if (batch.length === 100_000) {
      flush(batch);
      batch = [];
    }
  }
  flush(batch);
  db.transaction(() => {
    for (let s = 0; s < SESSIONS; s++) {
      const id = Number(
        insertStartup.run(`s_${s.toString(16).padStart(12, '0')}`, clients[s % clients.length])
          .lastInsertRowid,
      );
      tools.forEach((name, i) => insertTool.run(id, i, name, schemaBytes[i]));
    }
  })();
}
const t0 = performance.now();
if (!reuse) seedRaw();
const tRaw = performance.now();
if (!reuse) {
  rebuildAllMetrics(store);
  db.exec('ANALYZE');
}
const tSeed = performance.now();
const total = db.prepare('SELECT count(*) FROM calls').pluck().get() as number;

// Live ingest through the real writer: 30 calls per request, ~5% of them late (minutes back).
const live: BatchRecord['calls'] = [];
seed = 7;
for (const c of generate(Math.ceil(LIVE_CALLS / perSession), perSession)) {
  if (live.length >= LIVE_CALLS) break;
  const late = rnd() < 0.05 ? Math.floor(rnd() * 300_000) : 0;
  const t = c.t + SPAN_DAYS * 86_400_000 - late;
  live.push({
    payload: {
      v: 1,
      type: 'call',
      session_id: `${c.sessionId}_live`,
      client_name: c.client,
      tool_name: c.tool,
      started_at: new Date(t).toISOString(),
      duration_ms: c.duration,
      outcome: c.outcome as 'ok',
      response_bytes: c.bytes,
      is_empty: c.empty,
      args_hash: c.hash,
    },
    startedMs: t,
    extra: null,
  });
}
const tLive0 = performance.now();
if (!reuse) {
  for (let i = 0; i < live.length; i += 30) {
    store.writeBatch({
      keySha256: keySha,
      keyPrefix: 'mp_live_benc',
      receivedMs: Date.now(),
      status: 202,
      bodyBytes: 0,
      userAgent: null,
      error: null,
      calls: live.slice(i, i + 30),
      startups: [],
      rejections: [],
    });
  }
}
const tLive = performance.now() - tLive0;

// Exactness check: what ingest kept must equal a rebuild from raw rows.
const snap = () =>
  JSON.stringify([
    db
      .prepare('SELECT sum(link * 7 + prev_link * 3 + fcs + chain * 11 + run_id % 1000) FROM calls')
      .pluck()
      .get(),
    db
      .prepare(
        'SELECT tool_name, oc, link, head, sum(calls), sum(units) FROM metrics_daily GROUP BY 1, 2, 3, 4 HAVING sum(calls) > 0',
      )
      .raw()
      .all(),
    db
      .prepare('SELECT sum(fcs), sum(retries), sum(chains), sum(calls) FROM metrics_sessions')
      .raw()
      .all(),
    db
      .prepare(
        'SELECT from_tool, to_tool, sum(n) FROM metrics_pairs GROUP BY 1, 2 HAVING sum(n) > 0',
      )
      .raw()
      .all(),
  ]);
const check = !reuse && !process.argv.includes('--no-check');
const tCheck0 = performance.now();
if (check) {
  const before = snap();
  rebuildAllMetrics(store);
  if (snap() !== before) {
    console.error('incremental maintenance disagrees with a rebuild');
    process.exitCode = 1;
  }
}
const tCheck = performance.now() - tCheck0;

/** One operation, run as the API runs it (its own handler, the shared filter parser). */
const route = (name: ApiName, path: string, params: Record<string, string> = {}) => {
  const query = new URL(path, 'http://x').searchParams;
  const handler: ApiHandler = handlers[name];
  return () => {
    const ctx: ApiContext = {
      store,
      query,
      params,
      body: undefined,
      filter: parseFilter(query, store),
    };
    return JSON.stringify(handler(ctx)).length;
  };
};
const bare = db.prepare('SELECT tool_name, count(*) FROM calls GROUP BY tool_name');
const bareQuery = () => bare.all().length;

/** Median of `runs` timed runs after one warm-up. */
function time(fn: () => unknown, runs = RUNS): number {
  fn();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const a = performance.now();
    fn();
    xs.push(performance.now() - a);
  }
  return xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

const session = `s_${Math.min(1234, SESSIONS - 1)
  .toString(16)
  .padStart(12, '0')}`;
const lastDay = new Date(
  START + SPAN_DAYS * 86_400_000 - 86_400_000 + 3_600_000 * 7.5,
).toISOString();
const weekAgo = new Date(START + (SPAN_DAYS - 7) * 86_400_000 + 123_456).toISOString();
const cases: [string, () => unknown, boolean][] = [
  ['summary (`GET /api/summary`, everything)', route('summary', '/api/summary'), true],
  [
    `one session's calls and chains (\`GET /api/sessions/:id\`, ${perSession} calls)`,
    route('session', '/api/sessions/x', { id: session }),
    true,
  ],
  [
    'sessions list page (`GET /api/sessions?limit=50`)',
    route('sessions', '/api/sessions?limit=50'),
    true,
  ],
  ['size histogram (`GET /api/sizes`)', route('sizes', '/api/sizes'), true],
  [
    'summary, last 24 h (two partial days)',
    route('summary', `/api/summary?from=${lastDay}`),
    false,
  ],
  [
    'summary, last 7 days (partial-day edges)',
    route('summary', `/api/summary?from=${weekAgo}`),
    false,
  ],
  ['summary, one tool', route('summary', '/api/summary?tool=tool_03'), false],
  ['sessions list sorted by cost', route('sessions', '/api/sessions?limit=50&sort=cost'), false],
  ['sessions list, search', route('sessions', '/api/sessions?limit=50&q=00000000012'), false],
  ['tool page (`GET /api/tools/:name`)', route('tool', '/api/tools/x', { name: 'tool_03' }), false],
  [
    "one tool's newest calls (`GET /api/metrics/calls?tool=`)",
    route('metricsCalls', '/api/metrics/calls?tool=tool_03&limit=100'),
    false,
  ],
  [
    "one tool's crashes, newest first, with their count",
    route('metricsCalls', '/api/metrics/calls?tool=tool_03&outcome=crashed&limit=100'),
    false,
  ],
  [
    "one tool's failing calls by error (`GET /api/tools/:name/errors`)",
    route('toolErrors', '/api/tools/x/errors', { name: 'tool_03' }),
    false,
  ],
  [
    'time series, 30 days by day, one tool',
    route('timeseries', '/api/timeseries?bucket=day&tool=tool_03'),
    false,
  ],
  ['summary, one client', route('summary', '/api/summary?client=cursor'), false],
  ['chains page (`GET /api/chains`)', route('chains', '/api/chains?limit=50'), false],
  ['insights', route('insights', '/api/insights'), false],
  ['clients', route('clients', '/api/clients'), false],
  ['tool pairs', route('pairs', '/api/pairs'), false],
  ['time series, 30 days by day', route('timeseries', '/api/timeseries?bucket=day'), false],
  [
    'time series, 30 days by local day (tz=+120)',
    route('timeseries', '/api/timeseries?bucket=day&tz=120'),
    false,
  ],
  [
    'time series, last 24 h by hour',
    route('timeseries', `/api/timeseries?bucket=hour&from=${lastDay}`),
    false,
  ],
];

const rows: string[] = [];
let failed = false;
for (const [name, fn, required] of cases) {
  const b = time(bareQuery, BARE_RUNS);
  const ms = time(fn);
  const ratio = ms / b;
  const ok = ms < 250 && ratio <= 3;
  if (required && !ok) failed = true;
  rows.push(
    `| ${name} | ${ms.toFixed(1)} | ${b.toFixed(1)} | ${ratio.toFixed(2)}× | ${required ? (ok ? 'yes' : '**NO**') : ok ? '(yes)' : '(no)'} |`,
  );
}

console.log(
  `\n${total.toLocaleString('en-US')} calls, ${SESSIONS.toLocaleString('en-US')} sessions, ${TOOLS} tools — ${os.cpus()[0]?.model ?? 'cpu'} ×${os.cpus().length}, Node ${process.version}`,
);
const mib = (f: string): string =>
  existsSync(f) ? `${(statSync(f).size / 2 ** 20).toFixed(0)} MiB` : '0 MiB';
console.log(
  reuse
    ? `reused ${keptPath}: opening it (migrations included) took ${(tOpen / 1000).toFixed(1)} s`
    : `seeding: raw rows ${((tRaw - t0) / 1000).toFixed(1)} s, full rebuild of derived columns and rollups ${((tSeed - tRaw) / 1000).toFixed(1)} s`,
);
if (!reuse)
  console.log(
    `live ingest through the real writer: ${live.length.toLocaleString('en-US')} calls in ${(live.length / 30).toFixed(0)} requests, ${(tLive / 1000).toFixed(2)} s (${((tLive / live.length) * 30).toFixed(2)} ms per 30-call request, ${Math.round(live.length / (tLive / 1000)).toLocaleString('en-US')} calls/s); incremental = rebuild: ${check ? (process.exitCode ? 'NO' : `yes (checked in ${(tCheck / 1000).toFixed(1)} s)`) : 'not checked'}`,
  );
console.log(
  `database ${mib(store.path)} (WAL ${mib(`${store.path}-wal`)}); load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.log(`median of ${RUNS} runs after a warm-up; target: < 250 ms and ≤ 3× the bare query\n`);
console.log('| query | ms | bare GROUP BY ms | ratio | within target |');
console.log('| --- | ---: | ---: | ---: | :---: |');
for (const r of rows) console.log(r);
if (process.argv.includes('--keep')) {
  console.log(store.path);
  process.exit(0);
}
store.close();
if (dir) rmSync(dir, { recursive: true, force: true });
if (failed) process.exitCode = 1;
