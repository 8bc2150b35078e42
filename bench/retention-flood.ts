/**
 * Retention under a flood (issue 39): `serve --no-rate-limit` from dist/ takes autocannon's
 * flood (8 connections, SDK-shaped 30-call flushes, as fast as it answers, bench/ingest.ts's
 * bodies) for `--duration` seconds with a size cap of `--cap` calls, while this process counts
 * the calls in the file every 500 ms through its own read-only connection, until the spool's
 * backlog is applied.
 *
 * Beside it, in the same run, the bare baseline: the same flood with no cap reached (max_calls
 * 1,000,000,000), which shows what the file would hold and what acknowledging costs when
 * retention does nothing. `BENCH_BASE_CLI=path/to/dist/cli/main.js` adds a third row: the same
 * capped flood against another build (the one before the keep-up held 149× its cap).
 *
 * Target: the calls held never pass 2× the cap during the flood; acknowledgement latency and
 * rate are printed beside the baseline's; every acknowledged call is stored or counted as
 * deleted by retention.
 *
 *   node --import tsx bench/retention-flood.ts [--duration 60] [--cap 10000] [--max-spool N]
 */
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getRemote } from '../src/api/remote.js';
import { readRetentionTotals } from '../src/store/retention/totals.js';
import {
  BENCH_HEADERS,
  BENCH_TOKEN,
  bodyFactory,
  CLI,
  ensureBuilt,
  fmt,
  spawnServer,
} from './ingest/util.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    cap: { type: 'string', default: '10000' },
    connections: { type: 'string', default: '8' },
    'max-spool': { type: 'string' },
  },
});
const DURATION = Number(values.duration);
const CAP = Number(values.cap);
const CONNECTIONS = Number(values.connections);
const SIZE = 30;
const NO_CAP = 1_000_000_000;

interface Row {
  name: string;
  cap: number;
  acked: number;
  ackedPerS: number;
  p50: number;
  p99: number;
  /** The most calls the file held while the flood ran and its backlog was applied; after. */
  most: number;
  after: number;
  deleted: number;
  drainS: number;
}

async function spoolNow(url: string): Promise<number> {
  const { spool } = await getRemote(url, 'spool', {}, { token: BENCH_TOKEN });
  return spool?.pendingPayloads ?? 0;
}

async function run(name: string, cli: string, cap: number): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpulse-bench-retention-flood-'));
  const db = join(dir, 'devtools.db');
  const spool = values['max-spool'] ? ['--max-spool', values['max-spool']] : [];
  const server = await spawnServer(
    cli,
    ['serve', '--port', '0', '--db', db, '--no-rate-limit', ...spool],
    [],
    /dashboard\s+(http:\/\/\S+)/,
  );
  try {
    const put = await fetch(`${server.url}/api/settings/retention`, {
      method: 'PUT',
      headers: { ...BENCH_HEADERS, 'content-type': 'application/json' },
      body: JSON.stringify({ max_calls: cap }),
    });
    if (put.status !== 200) throw new Error(`setting the cap: ${put.status} ${await put.text()}`);
    const file = new Database(db, { readonly: true });
    const count = file.prepare<[], { n: number }>('SELECT count(*) AS n FROM calls');
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, count.get()!.n)), 500);
    const next = bodyFactory(SIZE, `rf${cap}`);
    const result = await autocannon({
      url: `${server.url}/v1/ingest`,
      connections: CONNECTIONS,
      duration: DURATION,
      timeout: 30,
      requests: [
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: 'Bearer mp_live_bench_retention_flood_0000',
          },
          setupRequest: (req, context) => ({ ...req, body: next(context) }),
        },
      ],
    });
    // Still sampled while the spool's backlog is applied: the cap holds then too.
    const t0 = performance.now();
    while ((await spoolNow(server.url)) > 0) await new Promise((r) => setTimeout(r, 100));
    const drainS = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    most = Math.max(most, count.get()!.n);
    // The keep-up's last steps after the last slice (a second at most).
    await new Promise((r) => setTimeout(r, 1500));
    const after = count.get()!.n;
    const deleted = readRetentionTotals(file).deleted.calls;
    file.close();
    const acked = result['2xx'] * SIZE;
    return {
      name,
      cap,
      acked,
      ackedPerS: acked / DURATION,
      p50: result.latency.p50,
      p99: result.latency.p99,
      most,
      after,
      deleted,
      drainS,
    };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

ensureBuilt();
const rows: Row[] = [];
rows.push(await run('baseline: no cap reached', CLI, NO_CAP));
rows.push(await run(`this build: cap ${fmt(CAP)}`, CLI, CAP));
if (process.env.BENCH_BASE_CLI)
  rows.push(await run(`BENCH_BASE_CLI: cap ${fmt(CAP)}`, process.env.BENCH_BASE_CLI, CAP));

console.log(
  `\nretention-flood bench: ${DURATION} s floods, ${CONNECTIONS} connections × ${SIZE} calls a request, ` +
    `spool ${values['max-spool'] ?? 'default'}, node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} on 2 CPUs, ${new Date().toISOString()}\n`,
);
console.log(
  '| run | acknowledged (calls/s) | ack p50 / p99 | most calls held (flood + backlog) | × cap | after the flood | deleted by retention | stored + deleted = acknowledged | backlog applied in |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |');
let met = true;
for (const r of rows) {
  const ratio = r.cap === NO_CAP ? '—' : `${(r.most / r.cap).toFixed(2)}×`;
  const kept = r.after + r.deleted;
  // Requests in flight when autocannon stopped counting may be stored too (≤ 1 a connection).
  const whole = kept >= r.acked && kept - r.acked <= 2 * CONNECTIONS * SIZE;
  console.log(
    `| ${r.name} | ${fmt(r.acked)} (${fmt(r.ackedPerS)}) | ${r.p50} / ${r.p99} ms | ${fmt(r.most)} | ${ratio} | ${fmt(r.after)} | ${fmt(r.deleted)} | ${whole ? 'yes' : `NO (${fmt(kept)})`} | ${r.drainS.toFixed(1)} s |`,
  );
  if (r.name.startsWith('this build') && (r.most > 2 * r.cap || !whole)) met = false;
}
console.log(
  `\ntarget (≤ 2× the cap during the flood and its backlog, every acknowledged call accounted for): ${met ? 'met' : 'MISSED'}`,
);
process.exitCode = met ? 0 : 1;
