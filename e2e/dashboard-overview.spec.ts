/**
 * Overview and Setup, read as a user would: the worked example of wire-format §4 through the
 * real ingest endpoint, numbers linking to their calls, and the first-run empty state.
 */
import { expect, openLink, startDevtools, test } from './server.js';
import { guardConsole, projectOf, shootBoth } from './ui-helpers.js';

const KEY = 'mp_live_overview_e2e';
const PROJECT = projectOf(KEY);

test('the worked example reads right on the overview, and its numbers open their calls', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  expect((await devtools.ingestCapture('ts-sdk-exercise', KEY)).status).toBe(202);
  await page.goto(`${devtools.url}/?project=${PROJECT}`);

  await expect(page.getByTestId('card-calls')).toContainText('7');
  await expect(page.getByTestId('card-fcs')).toContainText('28.6%');
  await expect(page.getByTestId('card-fcs')).toContainText('2 of 7 calls');
  await expect(page.getByTestId('card-p95')).toContainText('3.00 s');
  await expect(page.getByTestId('overview-sub')).toHaveText(
    '1 session · 2 retried calls in 1 retry chain',
  );
  const outcomes = { ok: '3', empty: '1', bad_args: '1', tool_error: '1', crashed: '1' };
  for (const [k, n] of Object.entries(outcomes)) {
    await expect(page.locator(`[data-outcome="${k}"] .obar-n`)).toHaveText(n);
  }
  await expect(page.getByTestId('latency-p95')).toContainText('3.00 s');
  // Issue 20: the latency panel resolves MCP calls in log buckets (durations 0, 1, 1, 1, 5, 5
  // and 3004 ms), and the hosted four ranges are one click away.
  const view = page.getByTestId('latency-view');
  await expect(view).toHaveAttribute('data-view', 'log');
  const ticks = page
    .getByTestId('latency-log')
    .locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
  await expect(ticks.first()).toHaveText('0');
  await expect(ticks.filter({ hasText: /^1–2$/ })).toHaveCount(1);
  await expect(ticks.last()).toHaveText('2K–5K');
  await expect(page.getByTestId('insights')).toContainText(
    'dead_tool is registered but was never called',
  );
  await expect(page.getByTestId('clients')).toContainText('mcpulse-exercise');
  await shootBoth(page, 'overview');

  await view.getByRole('button', { name: 'Hosted ranges' }).click();
  await expect(view).toHaveAttribute('data-view', 'hosted');
  await expect(page.getByTestId('latency-log')).toHaveCount(0);
  const hosted = page
    .getByTestId('latency')
    .locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
  await expect(hosted).toHaveText(['< 100 ms', '100–500 ms', '0.5–2 s', '≥ 2 s']);
  // A hosted range still opens its calls: the one call of 2 s or more.
  await page.getByTestId('latency').locator('.recharts-bar-rectangle path').last().click();
  await expect(page).toHaveURL(/\/calls\?.*latency=over_2000/);
  await expect(page.getByTestId('calls').locator('tbody tr')).toHaveCount(1);
  await page.goBack();
  await expect(page.getByTestId('latency-view')).toHaveAttribute('data-view', 'log');

  // First-call success links to the calls that were not first-call successes: 7 − 2 = 5.
  await page.getByTestId('card-fcs').getByRole('link').click();
  await expect(page).toHaveURL(/\/calls\?.*first_call_success=false/);
  await expect(page.getByTestId('calls').locator('tbody tr')).toHaveCount(5);
  await expect(page.getByTestId('calls-count')).toHaveText('5 calls');

  // The bad_args count opens exactly that call.
  await page.goto(`${devtools.url}/?project=${PROJECT}`);
  await page.locator('[data-outcome="bad_args"] a').click();
  await expect(page.getByTestId('calls').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('calls')).toContainText('c9af52d21b70');
  // The filter survives a reload: it lives in the URL.
  await page.reload();
  await expect(page.getByTestId('calls').locator('tbody tr')).toHaveCount(1);
  console.check();
});

test('before the first payload every page points to Setup, which shows the real endpoint', async ({
  page,
}) => {
  const { server, stop } = await startDevtools();
  try {
    // As a user would: the printed link first, then the pages.
    await openLink(page, server);
    const console = guardConsole(page);
    await page.goto(server.url);
    await expect(page.getByText('Waiting for the first payload')).toBeVisible();
    // Issue 11: no SDK reads MCPULSE_ENDPOINT, so the empty state offers the URL for the option.
    await expect(page.getByText("Set your SDK's endpoint option to this URL")).toBeVisible();
    await expect(page.locator('.state-env code')).toHaveText(server.url);
    await shootBoth(page, 'empty-state');
    for (const path of ['/sessions', '/tools', '/sizes', '/ingest', '/calls']) {
      await page.goto(server.url + path);
      await expect(page.getByRole('link', { name: 'Point an SDK here →' })).toBeVisible();
    }
    await page.getByRole('link', { name: 'Point an SDK here →' }).click();
    await expect(page).toHaveURL(/\/setup/);
    await expect(page.getByTestId('endpoint-url')).toHaveText(server.url);
    await expect(page.getByTestId('first-payload')).toHaveText('No payload received yet');
    for (const lang of [
      'TypeScript',
      'Python',
      'Go',
      'Java / Kotlin',
      '.NET',
      'Rust',
      'Ruby',
      'PHP',
      'Swift',
    ]) {
      await page.getByRole('tab', { name: lang }).click();
      // Issue 11: no SDK reads MCPULSE_ENDPOINT; each tab sets its own endpoint option.
      await expect(page.getByRole('tabpanel', { name: lang })).not.toContainText(
        'export MCPULSE_ENDPOINT',
      );
      await expect(page.getByRole('tabpanel', { name: lang })).toContainText(server.url);
    }
    await expect(page.getByTestId('listener')).toContainText(String(new URL(server.url).port));
    await expect(page.getByTestId('listener')).toContainText(server.dbPath);
    await shootBoth(page, 'setup');

    // The first payload flips Setup live, without a reload.
    await server.ingestCapture('go-style');
    await expect(page.getByTestId('first-payload')).toHaveText('Receiving data');
    await expect(page.getByTestId('rows-stored')).not.toContainText('0 calls');
    console.check();
  } finally {
    await stop();
  }
});
