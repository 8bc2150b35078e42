/**
 * Live updates over /api/stream: a call ingested while the dashboard is open appears without a
 * reload, and a sustained 200 calls/s keeps the page responsive (updates are coalesced).
 */
import { expect, test } from './server.js';
import { call, guardConsole, projectOf } from './ui-helpers.js';

const KEY = 'mp_live_stream_e2e';
const PROJECT = projectOf(KEY);

test('a call ingested while the dashboard is open appears without a reload', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  expect((await devtools.ingestCapture('ts-sdk-exercise', KEY)).status).toBe(202);
  await page.goto(`${devtools.url}/?project=${PROJECT}`);
  await expect(page.getByTestId('card-calls')).toContainText('7');
  await expect(page.getByTestId('live-indicator')).toHaveText(/Live/);
  // A marker on window survives only if the page is not reloaded.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));

  const res = await devtools.ingest(
    {
      batch: [
        call({
          session: 's_e4cc6a39269d',
          tool: 'arrived_live_tool',
          at: Date.now(),
          client: 'mcpulse-exercise',
        }),
      ],
    },
    KEY,
  );
  expect(res.status).toBe(202);
  await expect(page.getByTestId('live-feed')).toContainText('arrived_live_tool');
  await expect(page.getByTestId('card-calls')).toContainText('8');
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
  console.check();
});

test('200 calls per second for 3 seconds are coalesced, and the page keeps working', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  const key = 'mp_live_flood_e2e';
  await page.goto(`${devtools.url}/?project=${projectOf(key)}`);
  await expect(page.getByTestId('live-indicator')).toHaveText(/Live/);
  // Longest gap between animation frames while the flood runs.
  await page.evaluate(() => {
    const w = window as unknown as { maxGap: number; stop: boolean };
    w.maxGap = 0;
    w.stop = false;
    let last = performance.now();
    const tick = (now: number): void => {
      w.maxGap = Math.max(w.maxGap, now - last);
      last = now;
      if (!w.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  // Every refetch of the summary the page makes while the flood runs: coalescing means one per
  // 400 ms window at most, however many calls arrive — not one per call (600) or per batch (30).
  let summaryFetches = 0;
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === '/api/summary') summaryFetches++;
  });
  const t0 = Date.now();
  let sent = 0;
  for (let b = 0; b < 30; b++) {
    const batch = Array.from({ length: 20 }, (_, i) =>
      call({
        session: `s_${(b % 6).toString(16).padStart(12, 'f')}`,
        tool: `flood_${i % 8}`,
        at: t0 + sent + i,
        hash: (sent + i).toString(16).padStart(12, '0'),
      }),
    );
    sent += batch.length;
    const wait = t0 + b * 100 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    expect((await devtools.ingest({ batch }, key)).status).toBe(202);
  }
  await expect(page.getByTestId('card-calls')).toContainText('600', { timeout: 15_000 });
  const maxGap = await page.evaluate(() => {
    const w = window as unknown as { maxGap: number; stop: boolean };
    w.stop = true;
    return w.maxGap;
  });
  const elapsed = Date.now() - t0;
  // The longest frame gap is reported, not asserted: on a shared two-core machine it measures
  // the machine as much as the page. What the page controls is asserted instead.
  test
    .info()
    .annotations.push(
      { type: 'longest frame gap', description: `${Math.round(maxGap)} ms` },
      { type: 'summary refetches', description: `${summaryFetches} in ${elapsed} ms` },
    );
  expect(summaryFetches).toBeGreaterThan(0);
  expect(summaryFetches).toBeLessThanOrEqual(Math.ceil(elapsed / 400) + 2);
  await page.getByRole('link', { name: 'Sessions' }).click();
  await expect(page.getByTestId('sessions-count')).toHaveText('6 sessions');
  console.check();
});
