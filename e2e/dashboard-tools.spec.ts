/**
 * Tools, a tool's page, Sizes and the Ingest log for the worked example; and hostile strings
 * (HTML, right-to-left text, 200-character names, emoji) rendered as text without breaking
 * the layout.
 */
import { expect, test } from './server.js';
import { call, guardConsole, ingestAll, projectOf, shootBoth, startup } from './ui-helpers.js';

const KEY = 'mp_live_tools_e2e';
const PROJECT = projectOf(KEY);

test('tools health table, a tool page, sizes and the ingest log for the worked example', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  expect((await devtools.ingestCapture('ts-sdk-exercise', KEY)).status).toBe(202);

  await page.goto(`${devtools.url}/tools?project=${PROJECT}`);
  await expect(page.getByTestId('tools-sub')).toHaveText('6 registered · 5 called · 1 never used');
  // The table's rows (the insights list above it names tools too).
  const table = page.getByTestId('tools');
  const dead = table.locator('[data-tool="dead_tool"]');
  await expect(dead.locator('[data-badge="never_used"]')).toHaveText('never used');
  await expect(table.locator('[data-tool="fast_tool"]')).toContainText('33.3%');
  await expect(table.locator('[data-tool="slow_tool"]')).toContainText('3.00 s');
  await shootBoth(page, 'tools');

  // Keyboard: / filters, j/Enter opens.
  await page.keyboard.press('/');
  await page.keyboard.type('fast');
  await expect(page.getByTestId('tools').locator('tbody tr')).toHaveCount(1);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/tool\?.*name=fast_tool/);
  await expect(page.getByTestId('tool-facts')).toContainText('33.3%');
  await expect(page.getByTestId('tool-facts')).toContainText('1 of 3');
  await expect(page.getByTestId('tool-chains').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('tool-chains')).toContainText('resolved');
  await shootBoth(page, 'tool');

  await page.goto(`${devtools.url}/sizes?project=${PROJECT}`);
  await expect(page.getByTestId('size-schema')).toContainText('1,798');
  await expect(page.getByTestId('size-tools').locator('tbody tr')).toHaveCount(6);
  await shootBoth(page, 'sizes');

  // One bad item next to a good one: the good one is stored, the bad one shows with its reason.
  const bad = { v: 2, type: 'call', session_id: 's_000000000bad' };
  const good = call({
    session: 's_00000000good',
    tool: 'fast_tool',
    at: Date.parse('2026-12-02T09:50:00Z'),
  });
  expect((await devtools.ingest({ batch: [good, bad] }, KEY)).status).toBe(202);
  await page.goto(`${devtools.url}/ingest?project=${PROJECT}`);
  await expect(page.getByTestId('batches').locator('tbody tr')).toHaveCount(2);
  await expect(page.getByTestId('rejections')).toContainText(
    'v: Invalid literal value, expected 1',
  );
  await expect(page.getByTestId('rejections').locator('li')).toHaveCount(1);
  await expect(page.getByTestId('ingest-summary')).toContainText('1 item rejected');
  await shootBoth(page, 'ingest');
  console.check();
});

test('hostile tool names render as text and keep the layout', async ({ page, devtools }) => {
  const console = guardConsole(page);
  let dialogs = 0;
  page.on('dialog', (d) => {
    dialogs++;
    void d.dismiss();
  });
  const names = [
    '<img src=x onerror=alert(1)>',
    'ابحث_عن_المستندات',
    'x'.repeat(200),
    '🚀 launch ✨ tool 👩‍💻',
    '"quoted" & <b>bold</b>',
  ];
  const key = 'mp_live_hostile_e2e';
  const session = 's_00000000bad1';
  const t0 = Date.parse('2026-12-02T08:00:00Z');
  await ingestAll(
    devtools,
    [
      startup(
        session,
        names.map((n) => [n, 100]),
      ),
      ...names.map((n, i) => call({ session, tool: n, at: t0 + i * 100, client: n.slice(0, 128) })),
    ],
    key,
  );
  for (const path of [
    `/tools?project=${projectOf(key)}`,
    `/session?project=${projectOf(key)}&id=${session}`,
    `/?project=${projectOf(key)}`,
  ]) {
    await page.goto(devtools.url + path);
    await expect(page.getByText(names[0]!, { exact: true }).first()).toBeVisible();
    // No element was injected, and nothing runs.
    expect(await page.locator('main img[src="x"], main b').count()).toBe(0);
    // The page never scrolls sideways: long names are cut with an ellipsis and a title.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expect(page.locator(`[title="${names[2]}"]`).first()).toBeVisible();
  }
  await shootBoth(page, 'hostile-strings');
  expect(dialogs).toBe(0);
  console.check();
});
