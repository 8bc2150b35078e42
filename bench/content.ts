/**
 * The proxy-content side of the server: what a content post costs (POST /v1/local/proxy,
 * 1,000 messages each), what a stored message costs on disk, and how long the reads over it
 * take at 10,000 proxied calls — GET /api/messages, GET /api/tools/:name/errors and
 * GET /api/insights (which adds the first-call-error insight). Real server on port 0, real
 * SQLite file in a temp folder, real HTTP. Run: node --import tsx bench/content.ts
 */
import { readFileSync, rmSync } from 'node:fs';
import { contentInsightsOf } from '../src/api/tool-error-routes.js';
import { connectionOf } from '../src/store/connection.js';
import { startTestServer } from '../test/helpers/server.js';
import { postContent, proxiedSession, type ScriptedCall } from '../test/content/helpers.js';
import { median } from './stats.js';

async function timed(fn: () => Promise<unknown>, runs = 7): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const t = await startTestServer();
try {
  // 500 sessions × 20 calls, 30 % failing on the first call with one of three texts.
  const SESSIONS = 500;
  const CALLS = 20;
  const texts = ['Invalid date format: use YYYY-MM-DD', 'repo not found', 'rate limited'];
  const posts: { ingest: unknown; content: { messages?: unknown[] } }[] = [];
  for (let s = 0; s < SESSIONS; s++) {
    const calls: ScriptedCall[] = Array.from({ length: CALLS }, (_, i) => ({
      tool: i % 2 ? 'search_issues' : 'read_file',
      args: { query: `issue ${s}-${i} about something`, since: '2026-12-01', limit: 20 },
      text: `found ${i} issues: ${'lorem ipsum '.repeat(20)}`,
      isError: i < 2 && s % 10 < 3,
      t: s * 3_600_000 + i * 40_000,
    }));
    for (const c of calls) if (c.isError) c.text = texts[s % 3];
    posts.push(proxiedSession(`s_bench_${String(s).padStart(5, '0')}`, calls));
  }
  const db = connectionOf(t.store);
  const pages = () =>
    (db.pragma('page_count', { simple: true }) as number) *
    (db.pragma('page_size', { simple: true }) as number);
  for (const p of posts) await t.ingest(p.ingest);
  await t.api('calls', { limit: 1 }); // the spool applied
  const before = pages();
  const postTimes: number[] = [];
  let messages = 0;
  let bodyBytes = 0;
  // Two sessions per post ≈ 82 messages; the largest post the proxy makes is 2,000.
  for (const p of posts) {
    const t0 = performance.now();
    const res = await postContent(t.url, p.content);
    postTimes.push(performance.now() - t0);
    if (res.status !== 202) throw new Error(`post: ${res.status}`);
    messages += p.content.messages!.length;
    bodyBytes += (p.content.messages as { body: string }[]).reduce((n, m) => n + m.body.length, 0);
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  const after = pages();
  console.log(`load ${load()}`);
  console.log(
    `content posts: ${posts.length} of ${messages / posts.length} messages, median ${median(postTimes).toFixed(2)} ms/post (${((median(postTimes) / (messages / posts.length)) * 1000).toFixed(1)} µs/message)`,
  );
  console.log(
    `storage: ${((after - before) / messages).toFixed(0)} bytes/message on disk for ${(bodyBytes / messages).toFixed(0)}-byte bodies (${messages} messages)`,
  );
  const big = Array.from({ length: 2000 }, (_, seq) => ({
    seq, direction: 'client', at_ms: seq, method: 'resources/read', rpc_id: String(seq), kind: 'request',
    body: JSON.stringify({ jsonrpc: '2.0', id: seq, method: 'resources/read', params: { uri: `file:///x/${seq}` } }),
    truncated: false, bytes: 90,
  })); // prettier-ignore
  let n = 0;
  const bigPost = await timed(
    () => postContent(t.url, { v: 1, session_id: `s_big_${n++}`, messages: big }),
    5,
  );
  console.log(`a full post (2,000 messages): median ${bigPost.toFixed(1)} ms`);
  const session = 's_bench_00250';
  console.log(
    `GET /api/messages (one session, ${CALLS * 2 + 1} messages): ${(await timed(() => t.api('messages', { session }))).toFixed(2)} ms`,
  );
  console.log(
    `GET /api/messages?q= (substring search): ${(await timed(() => t.api('messages', { session, q: 'issue 250-7' }))).toFixed(2)} ms`,
  );
  const calls = (await t.api('calls', { session })).calls;
  console.log(
    `GET /api/calls/:id: ${(await timed(() => t.api('call', { id: calls[3]!.id }))).toFixed(2)} ms`,
  );
  const errors = await t.api('toolErrors', { name: 'search_issues' });
  console.log(
    `GET /api/tools/search_issues/errors (${errors.failing_calls} failing of ${(SESSIONS * CALLS) / 2} calls, ${errors.groups.length} groups): ${(await timed(() => t.api('toolErrors', { name: 'search_issues' }))).toFixed(1)} ms`,
  );
  const insights = await t.api('insights');
  const fce = insights.insights.filter((i) => i.kind === 'first_call_error').map((i) => i.message);
  console.log(
    `GET /api/insights (${SESSIONS * CALLS} calls; ${fce.join('; ')}): ${(await timed(() => t.api('insights'))).toFixed(1)} ms`,
  );
  const own = await timed(async () => contentInsightsOf(t.store, {}));
  console.log(`  of which the first-call-error insight (in-process): ${own.toFixed(1)} ms`);
  console.log(`load ${load()}`);
} finally {
  const dir = t.dir;
  await t.close();
  rmSync(dir, { recursive: true, force: true });
}
