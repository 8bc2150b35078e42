/**
 * Settings through the real server: the price per million tokens (validated by the server,
 * the error beside the field, costs recomputed), retention caps (bounds shown, a pass run and
 * reported) and clear-all behind a typed confirmation, which empties every open dashboard live.
 * Each test has its own server: these change or delete what other specs would read.
 */
import type { Page } from '@playwright/test';
import { expect, openLink, startDevtools, test } from './server.js';
import { call, guardConsole, ingestAll, projectOf, sessionId, shootBoth } from './ui-helpers.js';
import { getRemote } from '../src/api/remote.js';

const KEY = 'mp_live_settings_e2e';
const PROJECT = projectOf(KEY);
const T0 = Date.UTC(2026, 10, 20, 9, 0, 0);

/** 30 sessions of 50 calls, each session a minute after the last. */
const traffic = Array.from({ length: 1500 }, (_, i) =>
  call({
    session: sessionId(1000 + Math.floor(i / 50)),
    tool: i % 3 ? 'search' : 'fetch',
    at: T0 + Math.floor(i / 50) * 60_000 + (i % 50) * 500,
    hash: (i % 7).toString(16).repeat(12),
    bytes: 100,
  }),
);

const dollars = async (page: Page, testId: string): Promise<number> =>
  Number((await page.getByTestId(testId).locator('.stat-value').innerText()).replace(/[$,]/g, ''));

test('price and retention caps: validated beside the field, saved, applied', async ({ page }) => {
  test.setTimeout(90_000);
  const { server, stop } = await startDevtools();
  try {
    // As a user would: the printed link first, then the pages.
    await openLink(page, server);
    // The two refusals below are deliberate: Chromium logs every 4xx response it receives.
    const console = guardConsole(page, { allow: [/status of 400 \(Bad Request\)/] });
    await ingestAll(server, traffic, KEY);

    await page.goto(`${server.url}/sizes?project=${PROJECT}`);
    await expect(page.getByTestId('sizes-price')).toHaveText('$3 per million input tokens');
    const before = await dollars(page, 'size-cost');
    expect(before).toBeGreaterThan(0);

    // The price on Sizes leads to Settings.
    await page.getByTestId('sizes-price').click();
    await expect(page).toHaveURL(/\/settings/);
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    const price = page.getByTestId('pricing-input');
    await expect(price).toHaveValue('3');

    await price.fill('three');
    await page.getByRole('button', { name: 'Save price' }).click();
    await expect(page.getByTestId('pricing-error')).toHaveText(
      'Enter an amount in US dollars, e.g. 3 or 0.25',
    );
    // Out of range: the server's 400, shown beside the field.
    await price.fill('2,000,000');
    await page.getByRole('button', { name: 'Save price' }).click();
    await expect(page.getByTestId('pricing-error')).toHaveText(
      'Expected a number from 0 to 1,000,000',
    );
    await expect(price).toHaveAttribute('aria-invalid', 'true');

    await price.fill('6');
    await expect(page.getByTestId('pricing-error')).toHaveCount(0);
    await page.getByRole('button', { name: 'Save price' }).click();
    await expect(page.getByTestId('pricing-saved')).toContainText('$6 per million');
    await page.getByRole('link', { name: 'See Sizes →' }).click();
    await expect(page.getByTestId('sizes-price')).toHaveText('$6 per million input tokens');
    await expect.poll(() => dollars(page, 'size-cost')).toBeCloseTo(before * 2, 3);

    // Retention: the caps with their bounds; a cap out of range is refused by the server.
    await page.keyboard.press('g');
    await page.keyboard.press('e');
    await expect(page).toHaveURL(/\/settings/);
    const calls = page.getByTestId('retention-calls-input');
    const days = page.getByTestId('retention-days-input');
    await expect(calls).toHaveValue('2,000,000');
    await expect(days).toHaveValue('30');
    await expect(page.getByTestId('retention')).toContainText('1,000 to 1,000,000,000');
    await expect(page.getByTestId('retention-stored')).toHaveText('1,500 calls stored');
    await calls.fill('10');
    await page.getByRole('button', { name: 'Save caps' }).click();
    await expect(page.getByTestId('retention-calls-error')).toHaveText(
      'Expected an integer from 1,000 to 1,000,000,000, received 10',
    );
    await shootBoth(page, 'settings');

    // Saved caps start a pass at once; its result shows without a reload.
    await calls.fill('1000');
    await days.fill('14');
    await page.getByRole('button', { name: 'Save caps' }).click();
    await expect(page.getByTestId('retention-saved')).toBeVisible();
    await expect(page.getByTestId('retention-last-pass')).toContainText(/deleted [\d,]+ calls/, {
      timeout: 15_000,
    });
    // What retention deleted is counted in the file, and the page says it: stored + deleted
    // is every call sent.
    await expect(page.getByTestId('retention-totals')).toContainText(
      /Retention has deleted [\d,]+ calls/,
    );
    // The pass says so on the live stream: the stored count beside it follows without a reload.
    await expect(page.getByTestId('retention-stored')).toHaveText('1,000 calls stored');
    await page.getByTestId('retention-totals').scrollIntoViewIfNeeded();
    await shootBoth(page, 'settings-after-pass');
    const wide = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('retention-totals').scrollIntoViewIfNeeded();
    await shootBoth(page, 'settings-after-pass-390');
    await page.setViewportSize(wide);
    const { totals } = await getRemote(server.url, 'retention', {}, { token: server.token });
    const status = await getRemote(server.url, 'status', {}, { token: server.token });
    expect(status.counts.calls + totals.deleted.calls).toBe(1_500);
    expect(status.counts.calls).toBeLessThanOrEqual(1000);
    expect(status.counts.calls).toBeGreaterThan(0);
    await page.reload();
    await expect(calls).toHaveValue('1,000');
    await expect(days).toHaveValue('14');
    await expect(price).toHaveValue('6');
    console.check();
  } finally {
    await stop();
  }
});

test('clear all data asks for the phrase, then every open dashboard empties live', async ({
  page,
  context,
}) => {
  const { server, stop } = await startDevtools();
  try {
    // As a user would: the printed link first, then the pages.
    await openLink(page, server);
    const console = guardConsole(page);
    expect((await server.ingestCapture('ts-sdk-exercise', KEY)).status).toBe(202);
    const overview = await context.newPage();
    const overviewConsole = guardConsole(overview);
    await overview.goto(`${server.url}/?project=${PROJECT}`);
    await expect(overview.getByTestId('card-calls')).toContainText('7');

    await page.goto(`${server.url}/settings`);
    const panel = page.getByTestId('clear-data');
    await expect(panel).toContainText('now 7 calls, 1 startup and 1 batch');
    // Cancel leaves everything alone.
    await panel.getByRole('button', { name: 'Clear all data…' }).click();
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('clear-confirm-input')).toHaveCount(0);

    await panel.getByRole('button', { name: 'Clear all data…' }).click();
    const confirm = page.getByTestId('clear-confirm-input');
    await expect(confirm).toBeFocused();
    const del = panel.getByRole('button', { name: 'Delete everything' });
    await expect(del).toBeDisabled();
    await confirm.fill('delete all');
    await expect(del).toBeDisabled();
    await confirm.fill('delete all data');
    await expect(del).toBeEnabled();
    await shootBoth(page, 'settings-clear');
    await del.click();
    await expect(page.getByTestId('clear-result')).toHaveText(
      'Cleared · deleted 7 calls, 1 startup and 1 batch.',
    );

    // The other tab empties on the `cleared` event, no reload.
    await expect(overview.getByText('Waiting for the first payload')).toBeVisible();
    await expect(panel).toContainText('now 0 calls');
    const status = await getRemote(server.url, 'status', {}, { token: server.token });
    expect(status.counts).toMatchObject({ calls: 0, startups: 0, batches: 0 });
    console.check();
    overviewConsole.check();
  } finally {
    await stop();
  }
});

test('after clear-all the next payloads fill the dashboard again, live', async ({ page }) => {
  const { server, stop } = await startDevtools();
  try {
    // As a user would: the printed link first, then the pages.
    await openLink(page, server);
    const console = guardConsole(page);
    expect((await server.ingestCapture('ts-sdk-exercise', KEY)).status).toBe(202);
    const res = await fetch(`${server.url}/api/admin/clear`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...server.headers },
      body: JSON.stringify({ confirm: 'delete all data' }),
    });
    expect(res.status).toBe(200);
    await page.goto(`${server.url}/?project=${PROJECT}`);
    await expect(page.getByText('Waiting for the first payload')).toBeVisible();
    expect((await server.ingestCapture('ts-sdk-exercise', KEY)).status).toBe(202);
    await expect(page.getByTestId('card-calls')).toContainText('7');
    await expect(page.getByTestId('card-fcs')).toContainText('2 of 7 calls');
    console.check();
  } finally {
    await stop();
  }
});
