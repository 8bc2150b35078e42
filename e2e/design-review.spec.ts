/**
 * The designer's review (issue 14, items 7, 10, 12, 13, 15), read through a real server and a
 * real browser: every panel's empty, one-point and error states; units and abbreviations;
 * the answer first on the Overview; chart tooltips and axes; one way to link a tool, one
 * Export per page, titles at one height, and bad URL filter values said on screen.
 */
import { seedTour } from './page-tour.js';
import { expect, openLink, startDevtools, test, type DevtoolsServer } from './server.js';
import { guardConsole, projectOf } from './ui-helpers.js';

const KEY = 'mp_live_design_review';
const Q = `project=${projectOf(KEY)}`;

/** The demo plus the captures, once per server (the fixture is one server per worker). */
const seeded = new Map<string, Promise<[string, string][]>>();
function seed(page: Parameters<typeof seedTour>[0], devtools: DevtoolsServer) {
  if (!seeded.has(devtools.url)) seeded.set(devtools.url, seedTour(page, devtools, KEY));
  return seeded.get(devtools.url)!;
}

test.describe.configure({ timeout: 120_000 });

test('7 · a filter that matches nothing says so and offers to clear it; never a skeleton', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  await seed(page, devtools);
  await page.goto(`${devtools.url}/?${Q}&tool=nonexistent`);
  const none = page.getByTestId('no-match');
  await expect(none).toContainText('No calls match tool = nonexistent');
  await page.waitForTimeout(1500);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await none.getByRole('link', { name: 'Clear filter' }).click();
  await expect(page).not.toHaveURL(/tool=/);
  await expect(page).toHaveURL(new RegExp(Q));
  await expect(page.getByTestId('card-calls')).toBeVisible();

  // The Calls table says the same.
  await page.goto(`${devtools.url}/calls?${Q}&tool=nonexistent`);
  await expect(page.getByTestId('no-match')).toContainText('No calls match tool = nonexistent');

  // The Sizes charts, with a time range and a tool that match nothing.
  await page.goto(`${devtools.url}/sizes?${Q}&range=15m&tool=nonexistent`);
  await expect(page.getByTestId('no-match').first()).toContainText(
    'No calls match range = last 15 min · tool = nonexistent',
  );
  await expect(page.getByRole('link', { name: 'Clear all filters' }).first()).toBeVisible();
  console.check();
});

test('7 · one bucket of data: a dot and "since …", not a sparkline or a lone bar unexplained', async ({
  page,
}) => {
  const { server, stop } = await startDevtools();
  try {
    // As a user would: the printed link first, then the pages.
    await openLink(page, server);
    const console = guardConsole(page);
    expect((await server.ingestCapture('ts-sdk-exercise', 'mp_live_one_point')).status).toBe(202);
    await page.goto(`${server.url}/?project=${projectOf('mp_live_one_point')}`);
    await expect(page.getByTestId('series-one-point')).toContainText('one bucket');
    await expect(page.getByTestId('card-calls').getByTestId('stat-since')).toContainText('since');
    await expect(page.locator('.stat-spark')).toHaveCount(0);
    console.check();
  } finally {
    await stop();
  }
});

test('7 · a server that goes away: the page says so and offers to try again', async ({ page }) => {
  const { server, stop } = await startDevtools();
  let stopped = false;
  try {
    // As a user would: the printed link first, then the pages.
    await openLink(page, server);
    expect((await server.ingestCapture('go-style')).status).toBe(202);
    await page.goto(`${server.url}/`);
    await expect(page.getByTestId('card-calls')).toBeVisible();
    await stop();
    stopped = true;
    // An in-app navigation: the shell is loaded, the API is gone.
    await page.locator('nav.sidebar').getByRole('link', { name: 'Sizes' }).click();
    const error = page.getByRole('alert');
    await expect(error).toContainText('Could not load this view');
    await error.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('alert')).toContainText('Could not load this view');
  } finally {
    if (!stopped) await stop();
  }
});

test('10 · tokens are the unit, every header names its unit, abbreviations explain themselves, one cost precision', async ({
  page,
  devtools,
}) => {
  await seed(page, devtools);
  await page.goto(`${devtools.url}/tools?${Q}`);
  const head = page.getByTestId('tools').locator('thead');
  await expect(head).toContainText('Avg response (tok)');
  await expect(head).toContainText('Schema (tok)');
  await expect(head.locator('abbr', { hasText: 'FCS' })).toHaveAttribute('title', /First-call/);
  await expect(head.locator('abbr', { hasText: 'tok' }).first()).toHaveAttribute(
    'title',
    /UTF-16 code units ÷ 4/,
  );

  await page.goto(`${devtools.url}/sizes?${Q}`);
  await expect(page.getByTestId('size-avg')).toContainText('tok');
  await expect(page.getByTestId('size-responses')).toContainText('Cost of responses');
  const sizesHead = page.getByTestId('size-tools').locator('thead');
  for (const h of ['Avg response (tok)', 'Total responses (tok)', 'Response cost ($)'])
    await expect(sizesHead).toContainText(h);
  // Every dollar figure on the page: four decimals (or $0).
  const text = await page.locator('main').innerText();
  const costs = text.match(/\$[0-9.,]+/g) ?? [];
  expect(costs.length).toBeGreaterThan(5);
  // `$3` is the price per million tokens in the page's subtitle, not a cost.
  for (const c of costs.filter((c) => c !== '$3'))
    expect(c, `cost ${c}`).toMatch(/^\$(0|[0-9,]+\.\d{4})$/);

  await page.goto(`${devtools.url}/calls?${Q}`);
  await expect(page.getByTestId('calls').locator('thead')).toContainText('Response (tok)');
});

test('12 · the answer first: ranked insights above the charts, each opening its calls', async ({
  page,
  devtools,
}) => {
  await seed(page, devtools);
  await page.goto(`${devtools.url}/?${Q}`);
  const insights = page.getByTestId('insights');
  await expect(insights).toBeVisible();
  const chart = page.getByTestId('calls-over-time');
  expect((await insights.boundingBox())!.y).toBeLessThan((await chart.boundingBox())!.y);

  const fcs = insights.locator('[data-insight="low_first_call_success"]').first();
  await fcs.locator('.insight-title').click();
  await expect(page).toHaveURL(/\/calls\?.*tool=search_issues.*first_call_success=false/);
  await expect(page.getByTestId('calls').locator('tbody tr').first()).toBeVisible();

  // The p95 figure lies inside the bucket the card names.
  await page.goto(`${devtools.url}/?${Q}`);
  const card = page.getByTestId('card-p95');
  const value = await card.locator('.stat-value').innerText();
  const sub = await card.locator('.stat-sub').innerText();
  const ms = value.endsWith(' s') ? parseFloat(value) * 1000 : parseFloat(value);
  const range = /in (< 100 ms|100–500 ms|0\.5–2 s|≥ 2 s)/.exec(sub)?.[1];
  const bounds: Record<string, [number, number]> = {
    '< 100 ms': [0, 100],
    '100–500 ms': [100, 500],
    '0.5–2 s': [500, 2000],
    '≥ 2 s': [2000, Infinity],
  };
  expect(range, sub).toBeDefined();
  const [lo, hi] = bounds[range!]!;
  expect(ms).toBeGreaterThanOrEqual(lo);
  expect(ms).toBeLessThan(hi);
  // The latency chart's hosted view (one click from its log buckets) names its bars by the same
  // ranges.
  await page.getByTestId('latency-view').getByRole('button', { name: 'Hosted ranges' }).click();
  await expect(page.getByTestId('latency')).toContainText('100–500 ms');
});

test('13 · chart tooltips list the stack top-down with swatches and a total; histograms have axis titles and every label', async ({
  page,
  devtools,
}) => {
  await seed(page, devtools);
  await page.goto(`${devtools.url}/?${Q}`);
  // Hover the tallest bar of the calls-over-time chart.
  const bars = page.locator('[data-testid="calls-over-time"] .recharts-bar-rectangle path');
  await expect(bars.first()).toBeVisible();
  // Hover from outside the chart, in steps, until recharts shows its tooltip. The bars are
  // measured on each try: the chart may still be settling into its width.
  const tip = page.getByTestId('chart-tooltip');
  await expect(async () => {
    const boxes = await bars.evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2, h: r.height };
      }),
    );
    const tall = boxes.sort((a, b) => b.h - a.h)[0]!;
    await page.mouse.move(0, 0);
    await page.mouse.move(tall.x, tall.y, { steps: 5 });
    await expect(tip).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  const names = await tip.locator('tbody tr:not(.chart-tip-total) td:first-child').allInnerTexts();
  const order = ['crashed', 'tool error', 'bad args', 'empty', 'ok'];
  expect(names).toEqual(order.filter((n) => names.includes(n)));
  expect(await tip.locator('.chart-tip-swatch').count()).toBe(names.length);
  const counts = (await tip.locator('tbody tr:not(.chart-tip-total) td.num').allInnerTexts()).map(
    Number,
  );
  await expect(tip.locator('.chart-tip-total')).toContainText(
    `${counts.reduce((a, b) => a + b, 0)} calls`,
  );

  await page.goto(`${devtools.url}/sizes?${Q}`);
  const hist = page.getByTestId('response-sizes');
  await expect(hist).toContainText('Response size per call (UTF-16 units)');
  await expect(hist).toContainText('Calls');
  const labels = await hist.locator('.recharts-xAxis .recharts-cartesian-axis-tick').count();
  expect(labels).toBe(Number(await hist.getAttribute('data-buckets')));
});

test('15 · one tool link everywhere, one Export per page, titles at one height, bad filters said', async ({
  page,
  devtools,
}) => {
  const pages = await seed(page, devtools);
  // Tool names: the same link (to /tool with the filters) on every page that lists tools.
  for (const path of [
    `/?${Q}`,
    `/tools?${Q}`,
    `/calls?${Q}`,
    `/sizes?${Q}`,
    `/tool?${Q}&name=search_issues`,
  ]) {
    await page.goto(devtools.url + path);
    const links = page.locator('main a[data-tool-link]');
    await expect(links.first()).toBeVisible();
    const href = await links.first().getAttribute('href');
    expect(href, path).toMatch(/^\/tool\?project=[^&]+&name=/);
  }
  // Tools table names are links too (they were plain text).
  await page.goto(`${devtools.url}/tools?${Q}`);
  await expect(
    page.getByTestId('tools').locator('[data-tool="search_issues"] a[data-tool-link]'),
  ).toHaveAttribute('href', /name=search_issues/);

  const tops = new Map<string, number>();
  for (const [name, path] of pages) {
    await page.goto(devtools.url + path);
    const h1 = page.locator('main h1').first();
    await expect(h1).toBeVisible();
    tops.set(name, Math.round((await h1.boundingBox())!.y));
    const exports = page.getByRole('button', { name: /^Export/ });
    expect(await exports.count(), `${name}: Export buttons`).toBeLessThanOrEqual(1);
  }
  expect(new Set(tops.values()).size, JSON.stringify(Object.fromEntries(tops))).toBe(1);

  await page.goto(`${devtools.url}/?${Q}&range=bogus`);
  const bad = page.getByTestId('bad-filter-range');
  await expect(bad).toContainText('range=bogus');
  await expect(bad).toContainText('not a range');
  await bad.getByRole('button').click();
  await expect(page).not.toHaveURL(/range=/);
  await expect(page.getByTestId('bad-filter-range')).toHaveCount(0);
});
