/**
 * Calls dated by a wrong clock, in the browser: one call from a device whose clock was never
 * set (1970) used to turn the Overview's "Calls over time" card into the error "use
 * bucket=day", and a session dated in the future read "just now" forever. The chart now shows
 * where the data is and says what it left out; such sessions carry a visible flag.
 */
import { expect, test } from './server.js';
import { call, guardConsole, projectOf, sessionId, shootBoth } from './ui-helpers.js';

const KEY = 'mp_live_clock_e2e';

test.beforeAll(async ({ devtools }) => {
  const now = Date.now();
  const batch = [
    ...Array.from({ length: 12 }, (_, i) =>
      call({ session: sessionId(1), tool: 'search', at: now - 3_600_000 + i * 60_000 }),
    ),
    call({ session: sessionId(2), tool: 'search', at: Date.UTC(1970, 0, 1, 0, 0, 5) }),
    call({ session: sessionId(3), tool: 'fetch', at: Date.UTC(2099, 0, 1) }),
  ];
  expect((await devtools.ingest({ batch }, KEY)).status).toBe(202);
});

test('the Overview chart keeps to the data and names the outliers', async ({ page, devtools }) => {
  const console = guardConsole(page);
  await page.goto(`${devtools.url}/?project=${projectOf(KEY)}`);
  const note = page.getByTestId('series-outliers');
  await expect(note).toHaveText(
    '!1 call dated 1970 — clock not set? 1 call dated in the future (2099) — clock ahead? Not shown in this chart.',
  );
  await expect(page.getByText(/use bucket=day/)).toHaveCount(0);
  await expect(page.getByTestId('series-bucket')).toHaveText(/minute|hour/i);
  await shootBoth(page, 'clock-flags-overview');
  console.check();
});

test('sessions dated ahead of the clock or before MCP are flagged, in the list and on the page', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  await page.goto(`${devtools.url}/sessions?project=${projectOf(KEY)}`);
  const row = (n: number) => page.locator(`[data-session="${sessionId(n)}"]`);
  for (const [n, text] of [
    [3, 'future-dated'],
    [2, 'clock not set?'],
  ] as const) {
    const flag = row(n).getByTestId('clock-flag');
    await expect(flag).toHaveText(text);
    // Whole, not cut off by its cell: one-line cells clip what overflows them.
    const [box, cell] = await Promise.all([
      flag.boundingBox(),
      flag.locator('xpath=..').boundingBox(),
    ]);
    expect(box!.x + box!.width).toBeLessThanOrEqual(cell!.x + cell!.width);
    expect(await flag.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  }
  await expect(row(1).getByTestId('clock-flag')).toHaveCount(0);
  await shootBoth(page, 'clock-flags-sessions');
  await page.goto(`${devtools.url}/session?id=${sessionId(3)}&project=${projectOf(KEY)}`);
  await expect(page.locator('.page-head').getByTestId('clock-flag')).toHaveText('future-dated');
  console.check();
});
