/**
 * Startup: from spawning `mcpulse-devtools serve` to its first accepted ingest (the moment an
 * SDK's flush would succeed), and the listener's memory once idle — on a fresh database and
 * on one already holding 200,000 calls (startup must not scan the data).
 *
 *   node --import tsx bench/startup.ts [--runs 5] [--calls 200000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { CLI, ensureBuilt, fmt, ROOT, rssMiB, spawnServer } from './ingest/util.js';
import { median } from './stats.js';

/** The built store, so the database is made by exactly the code the CLI under test runs. */
type BuiltStore = { close(): void };
async function builtStore(): Promise<{
  openStore: (path: string) => BuiltStore;
  connectionOf: (store: BuiltStore) => import('better-sqlite3').Database;
  rebuildSql: () => string;
}> {
  const dist = (p: string): string => pathToFileURL(join(ROOT, 'dist', p)).href;
  const [{ openStore }, { connectionOf }, { rebuildSql }] = await Promise.all([
    import(dist('store/index.js')) as Promise<{ openStore: (path: string) => BuiltStore }>,
    import(dist('store/connection.js')) as Promise<{
      connectionOf: (store: BuiltStore) => import('better-sqlite3').Database;
    }>,
    import(dist('store/metrics/sql.js')) as Promise<{ rebuildSql: () => string }>,
  ]);
  return { openStore, connectionOf, rebuildSql };
}

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, calls: { type: 'string', default: '200000' } },
});
const RUNS = Number(values.runs);
const CALLS = Number(values.calls);

const BODY = JSON.stringify({
  batch: Array.from({ length: 30 }, (_, i) => ({
    v: 1,
    type: 'call',
    session_id: 's_startup',
    client_name: 'bench',
    tool_name: `tool_${i % 4}`,
    started_at: new Date(Date.UTC(2026, 11, 2) + i * 100).toISOString(),
    duration_ms: 10,
    outcome: 'ok',
    response_bytes: 50,
    is_empty: false,
    args_hash: (0xabc000000000 + i).toString(16),
  })),
});

/** A database holding `n` calls in 1,000 sessions, derived facts built (the bulk path). */
async function populated(dir: string, n: number): Promise<string> {
  const { openStore, connectionOf, rebuildSql } = await builtStore();
  const path = join(dir, 'big.db');
  const store = openStore(path);
  const db = connectionOf(store);
  db.exec(`
    INSERT INTO projects (id, key_sha256, key_prefix, first_seen_ms, last_seen_ms) VALUES (1, 'x', 'mp_live_big', 0, 0);
    INSERT INTO batches (id, project_id, received_ms, status, accepted, rejected, body_bytes) VALUES (1, 1, ${Date.now()}, 202, ${n}, 0, 0);
  `);
  db.prepare(
    `WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ? - 1)
     INSERT INTO calls (project_id, batch_id, session_id, client_name, tool_name, started_at, started_ms, duration_ms,
                        outcome, response_bytes, is_empty, args_hash, received_ms)
     SELECT 1, 1, 's_' || (i % 1000), 'bench', 'tool_' || (i % 7), '2026-12-01T00:00:00Z', 1796083200000 + i * 1000,
            i % 900, CASE WHEN i % 13 = 0 THEN 'tool_error' ELSE 'ok' END, i % 5000, 0, printf('%012x', i * 7919), ?
     FROM seq`,
  ).run(n, Date.now());
  db.exec(rebuildSql());
  store.close();
  return path;
}

async function once(
  db: string,
): Promise<{ listenMs: number; firstAckMs: number; rssListen: number; rssIdle: number }> {
  const t0 = performance.now();
  const server = await spawnServer(
    CLI,
    ['serve', '--port', '0', '--db', db, '--no-rate-limit'],
    [],
    /dashboard\s+(http:\/\/\S+)/,
  );
  try {
    const listenMs = performance.now() - t0;
    const rssListen = rssMiB(server.pid);
    const res = await fetch(`${server.url}/v1/ingest`, {
      method: 'POST',
      headers: { authorization: 'Bearer mp_live_startup', 'content-type': 'application/json' },
      body: BODY,
    });
    await res.arrayBuffer();
    if (res.status !== 202) throw new Error(`first ingest answered ${res.status}`);
    const firstAckMs = performance.now() - t0;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    return { listenMs, firstAckMs, rssListen, rssIdle: rssMiB(server.pid) };
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'mcpulse-startup-'));
  try {
    console.log(
      `startup bench: ${RUNS} runs each, node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs, ${new Date().toISOString()}`,
    );
    const cases: [string, () => string][] = [
      [
        'fresh database (created and migrated)',
        () => join(mkdtempSync(join(dir, 'fresh-')), 'devtools.db'),
      ],
      [
        `existing database, ${fmt(CALLS)} calls`,
        await (async () => {
          const t = performance.now();
          const path = await populated(dir, CALLS);
          console.log(
            `  (built the ${fmt(CALLS)}-call database in ${fmt((performance.now() - t) / 1000, 1)} s)`,
          );
          return () => path;
        })(),
      ],
    ];
    console.log(
      '\n| database | spawn → listening | spawn → first 202 | RSS at listen | RSS idle (3 s after) |',
    );
    console.log('|---|---:|---:|---:|---:|');
    for (const [label, dbFor] of cases) {
      const r: Awaited<ReturnType<typeof once>>[] = [];
      for (let i = 0; i < RUNS; i++) r.push(await once(dbFor()));
      const m = (k: keyof (typeof r)[number]) => median(r.map((x) => x[k]));
      const range = (k: keyof (typeof r)[number]) =>
        `${fmt(Math.min(...r.map((x) => x[k])))}–${fmt(Math.max(...r.map((x) => x[k])))}`;
      console.log(
        `| ${label} | ${fmt(m('listenMs'))} ms (${range('listenMs')}) | ${fmt(m('firstAckMs'))} ms (${range('firstAckMs')}) | ` +
          `${fmt(m('rssListen'), 1)} MiB | ${fmt(m('rssIdle'), 1)} MiB |`,
      );
    }
    console.log('\n(median of the runs, range in brackets)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
