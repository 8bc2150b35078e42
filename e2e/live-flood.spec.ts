/**
 * Issue 39: live updates coalesce. At 2,000 payloads/s an open tab refetches a few times a
 * second, not once per event: the server writes each stream at most every 250 ms
 * (src/server/sse.ts), the page bumps its views at most every 400 ms (renderer/src/api/live.ts),
 * and each view refetches at most once a second with a trailing fetch (useResource).
 */
import { expect, test } from './server.js';
import { call, guardConsole, projectOf } from './ui-helpers.js';

const KEY = 'mp_live_flood_2k_e2e';
const SECONDS = 6;
const PER_POST = 50;
const POSTS_PER_S = 2_000 / PER_POST;

test('2,000 payloads a second: the page refetches a few times a second, and shows the last', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  await page.goto(`${devtools.url}/?project=${projectOf(KEY)}`);
  await expect(page.getByTestId('live-indicator')).toHaveText(/Live/);

  // Every /api read the page makes (the stream itself aside), by when it was asked.
  const reads: { at: number; path: string }[] = [];
  page.on('request', (req) => {
    const { pathname } = new URL(req.url());
    if (pathname.startsWith('/api/') && pathname !== '/api/stream')
      reads.push({ at: Date.now(), path: pathname });
  });

  const t0 = Date.now();
  const posts: Promise<Response>[] = [];
  const total = SECONDS * POSTS_PER_S;
  for (let p = 0; p < total; p++) {
    const wait = t0 + (p * 1000) / POSTS_PER_S - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const batch = Array.from({ length: PER_POST }, (_, i) =>
      call({
        session: `s_${(p % 16).toString(16).padStart(12, 'a')}`,
        tool: `flood_${i % 8}`,
        at: t0 + p * 25 + i,
        hash: (p * PER_POST + i).toString(16).padStart(12, '0'),
      }),
    );
    posts.push(devtools.ingest({ batch }, KEY));
  }
  for (const res of await Promise.all(posts)) expect(res.status).toBe(202);
  const floodEnd = Date.now();
  // The last change is always shown: the trailing refetch brings the final count.
  await expect(page.getByTestId('card-calls')).toContainText(
    (total * PER_POST).toLocaleString('en-US'),
    { timeout: 30_000 },
  );

  const during = reads.filter((r) => r.at >= t0 && r.at <= floodEnd);
  const seconds = (floodEnd - t0) / 1000;
  // Reads in any one second, and per view: how often the page refetched.
  let most = 0;
  for (const r of during)
    most = Math.max(most, during.filter((x) => x.at >= r.at && x.at < r.at + 1000).length);
  const byPath = new Map<string, number>();
  for (const r of during) byPath.set(r.path, (byPath.get(r.path) ?? 0) + 1);
  const busiest = Math.max(0, ...byPath.values());
  // Refetch rounds: the views a bump wakes ask together; reads 100 ms apart or more are a new one.
  const rounds: number[] = [];
  for (const r of during) if (!rounds.length || r.at - rounds.at(-1)! >= 100) rounds.push(r.at);
  let roundsPerS = 0;
  for (const a of rounds)
    roundsPerS = Math.max(roundsPerS, rounds.filter((b) => b >= a && b < a + 1000).length);
  test.info().annotations.push({
    type: 'refetches under 2,000 payloads/s',
    description:
      `${during.length} /api reads in ${seconds.toFixed(1)} s (${(during.length / seconds).toFixed(1)}/s, ` +
      `at most ${most} in one second, in at most ${roundsPerS} rounds); per view: ${[...byPath].map(([p, n]) => `${p} ${n}`).join(', ')}`,
  });
  process.stdout.write(`${test.info().annotations.at(-1)!.description}\n`);

  // Each view at most about once a second (the first plus one a second after it), not per event
  // (80,000 call events, 240 batches); the page as a whole a few times a second.
  expect(busiest).toBeLessThanOrEqual(Math.ceil(seconds) + 2);
  expect(most).toBeLessThanOrEqual(3 * Math.max(1, byPath.size));
  expect(roundsPerS).toBeLessThanOrEqual(4);
  console.check();
});
