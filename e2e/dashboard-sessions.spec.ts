/**
 * Sessions: the worked example's session as a user reads it (timeline, retry chain, why each
 * call is or is not a first-call success), keyboard navigation, search, compare, and 10,000
 * sessions in a virtualized list.
 */
import { expect, test } from './server.js';
import {
  call,
  guardConsole,
  ingestAll,
  projectOf,
  sessionId,
  shootBoth,
  startup,
} from './ui-helpers.js';

const KEY = 'mp_live_sessions_e2e';
const PROJECT = projectOf(KEY);

test('the worked session: timeline, one resolved chain of 3, and the reason for every call', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  expect((await devtools.ingestCapture('ts-sdk-exercise', KEY)).status).toBe(202);
  await page.goto(`${devtools.url}/sessions?project=${PROJECT}`);
  await expect(page.getByTestId('sessions-count')).toHaveText('1 session');

  // Keyboard: j selects the first row, Enter opens it.
  await page.keyboard.press('j');
  await expect(page.locator('[data-session="s_e4cc6a39269d"]')).toHaveClass(/selected/);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/session\?.*id=s_e4cc6a39269d/);

  await expect(page.getByTestId('session-fcs')).toContainText('28.6%');
  await expect(page.getByTestId('session-fcs')).toContainText('2 of 7');
  await expect(page.getByTestId('session-chains')).toContainText('1');
  await expect(page.getByTestId('session-chains')).toContainText('1 resolved');

  const chains = page.getByTestId('chains').locator('li.chain');
  await expect(chains).toHaveCount(1);
  await expect(chains.first()).toContainText('fast_tool');
  await expect(chains.first()).toContainText('3 calls · 2 retries');
  await expect(chains.first()).toContainText('resolved');
  await expect(page.getByTestId('timeline').locator('[data-chain]')).toHaveCount(1);
  await expect(page.getByTestId('timeline').locator('.tl-bar')).toHaveCount(7);

  const rows = page.getByTestId('session-calls').locator('tbody tr');
  await expect(rows).toHaveCount(7);
  // First-call successes: slow_tool (#6) and the last fast_tool (#7), nothing else.
  await expect(page.getByTestId('session-calls').locator('[data-fcs="yes"]')).toHaveCount(2);
  await expect(rows.nth(5).locator('[data-fcs]')).toHaveAttribute('data-fcs', 'yes');
  await expect(rows.nth(6).locator('[data-fcs]')).toHaveAttribute('data-fcs', 'yes');
  await expect(rows.nth(0)).toContainText('retried');
  await expect(rows.nth(1)).toContainText('empty');
  await expect(rows.nth(4)).toContainText('bad args, retried');
  // The cell gives the verdict in a word; the details panel gives the whole reason.
  await rows.nth(6).click();
  await expect(page.getByTestId('call-reason')).toHaveText('ok, not empty, and not retried.');

  // j/k walk the calls; the selected call is highlighted in the timeline too.
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/call=\d+/);
  await expect(page.getByTestId('timeline').locator('.tl-bar.selected')).toHaveCount(1);
  await shootBoth(page, 'session-detail');
  console.check();
});

test('search with /, and compare two sessions side by side', async ({ page, devtools }) => {
  const console = guardConsole(page);
  const t0 = Date.parse('2026-12-01T10:00:00Z');
  const a = 's_a0000000000a';
  const b = 's_b0000000000b';
  await ingestAll(
    devtools,
    [
      startup(
        a,
        [
          ['search', 300],
          ['fetch', 200],
        ],
        'client-a',
      ),
      call({
        session: a,
        tool: 'search',
        at: t0,
        outcome: 'bad_args',
        hash: '111111111111',
        client: 'client-a',
      }),
      call({ session: a, tool: 'search', at: t0 + 500, hash: '222222222222', client: 'client-a' }),
      call({ session: a, tool: 'fetch', at: t0 + 900, client: 'client-a' }),
      startup(
        b,
        [
          ['search', 300],
          ['fetch', 200],
        ],
        'client-b',
      ),
      call({ session: b, tool: 'search', at: t0 + 5000, client: 'client-b' }),
      call({ session: b, tool: 'fetch', at: t0 + 5300, outcome: 'tool_error', client: 'client-b' }),
    ],
    KEY,
  );
  await page.goto(`${devtools.url}/sessions?project=${PROJECT}`);
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Search sessions' })).toBeFocused();
  await page.keyboard.type('client-b');
  await expect(page.getByTestId('sessions-count')).toHaveText('1 session matching “client-b”');
  await page.getByRole('searchbox', { name: 'Search sessions' }).fill('');

  await page.getByRole('checkbox', { name: `Pick ${a} to compare` }).check();
  await page.getByRole('checkbox', { name: `Pick ${b} to compare` }).check();
  await page.getByTestId('compare-button').click();
  await expect(page).toHaveURL(/\/compare\?/);
  await expect(page.getByTestId('compare-A')).toContainText('66.7% FCS (2/3)');
  await expect(page.getByTestId('compare-B')).toContainText('50.0% FCS (1/2)');
  const search = page.getByTestId('compare-tools').locator('tr', { hasText: 'search' });
  await expect(search).toContainText('+50.0 pt');
  await expect(page.getByTestId('compare-tools').locator('tr', { hasText: 'fetch' })).toContainText(
    '-100.0 pt',
  );
  await expect(page.getByTestId('compare-tools').locator('tbody tr')).toHaveCount(2);
  await shootBoth(page, 'compare');
  console.check();
});

test('10,000 sessions scroll in a virtualized list', async ({ page, devtools }) => {
  test.setTimeout(120_000);
  const console = guardConsole(page);
  const key = 'mp_live_bulk_sessions';
  const t0 = Date.parse('2026-11-30T00:00:00Z');
  const payloads = Array.from({ length: 10_000 }, (_, i) =>
    call({
      session: sessionId(i + 1),
      tool: `tool_${i % 40}`,
      at: t0 + i * 1000,
      outcome: i % 7 === 0 ? 'tool_error' : 'ok',
    }),
  );
  await ingestAll(devtools, payloads, key);
  await page.goto(`${devtools.url}/sessions?project=${projectOf(key)}`);
  await expect(page.getByTestId('sessions-count')).toHaveText('10,000 sessions');
  // Only the rows on screen exist in the DOM.
  const rendered = await page.locator('.vbody .vrow').count();
  expect(rendered).toBeLessThan(100);

  const body = page.locator('.vbody');
  await body.evaluate((el) => (el.scrollTop = el.scrollHeight));
  // Sorted by last seen, newest first: the bottom row is the oldest session.
  await expect(page.locator(`[data-session="${sessionId(1)}"]`)).toBeVisible();
  await body.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
  await expect(page.locator('.vbody [data-row-index="5000"][data-session]')).toBeVisible();
  expect(await page.locator('.vbody .vrow').count()).toBeLessThan(100);
  console.check();
});
