/**
 * The session and calls tables as a reader meets them (issue 14, items 8, 9, 11): short
 * verdicts with the full reason in a details panel beside the table, retry chains that show
 * what changed between attempts with the playground one click away, and sessions named by what
 * they did, as real links, with `aria-sort` on every sortable header.
 */
import { createHash } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './server.js';
import { call, guardConsole, ingestAll, projectOf, startup } from './ui-helpers.js';

const KEY = 'mp_live_tables_e2e';
const PROJECT = projectOf(KEY);
const WORKED = 's_e4cc6a39269d';
const T0 = Date.parse('2026-12-02T11:00:00Z');

/** args_hash of a canonical text, as every SDK computes it (wire-format §3). */
const hashOf = (canonical: string): string =>
  createHash('sha256').update(canonical, 'utf8').digest('hex').slice(0, 12);

const ARGS_1 = '{"q":"login bug"}';
const ARGS_2 = '{"limit":10,"q":"login bug"}';
const ARGS_3 = '{"limit":10,"q":"login bug safari"}';

/** A session whose SDK sends extra fields: a label on its startup, an attempt count per call. */
const LABELLED = 's_1abe11ed0001';
function labelledSession(): Record<string, unknown>[] {
  const c = (n: number, at: number, args: string, extra: Record<string, unknown>, over = {}) => ({
    ...call({
      session: LABELLED,
      tool: 'search_issues',
      at: T0 + at,
      hash: hashOf(args),
      client: 'Claude Desktop (beta channel)',
      bytes: 40,
      ...over,
    }),
    attempt: n,
    ...extra,
  });
  return [
    {
      ...startup(LABELLED, [['search_issues', 412]], 'Claude Desktop (beta channel)'),
      session_label: 'triage a login bug',
    },
    c(1, 0, ARGS_1, { model: 'small' }, { empty: true }),
    c(2, 1_200, ARGS_2, { model: 'small' }, { empty: true }),
    c(3, 2_900, ARGS_3, { model: 'large' }, { bytes: 1_840 }),
  ];
}

const HOSTILE = 's_b0b0b0b0b0b0';
const HOSTILE_LABEL = '<img src=x onerror="window.__pwned=1">‮evil';

/** True when nothing of the element's text is cut off. */
const fits = (l: Locator): Promise<boolean> =>
  l.evaluate(
    (el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1,
  );

async function openSession(page: Page, url: string, id: string): Promise<void> {
  await page.goto(`${url}/session?project=${PROJECT}&id=${id}`);
  await expect(page.getByTestId('session-calls')).toBeVisible();
}

test.beforeAll(async ({ devtools }) => {
  expect((await devtools.ingestCapture('ts-sdk-exercise', KEY)).status).toBe(202);
  await ingestAll(devtools, labelledSession(), KEY);
  // A label is text from the wire: markup in it must render as text.
  await ingestAll(
    devtools,
    [
      { ...startup(HOSTILE, [['x', 1]]), label: HOSTILE_LABEL },
      call({ session: HOSTILE, tool: 'x', at: T0 - 60_000 }),
    ],
    KEY,
  );
});

test('verdicts: a short verdict in the cell, the full reason in the details panel', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  await openSession(page, devtools.url, WORKED);
  const rows = page.getByTestId('session-calls').locator('tbody tr');
  await expect(rows).toHaveCount(7);
  const verdicts = rows.locator('[data-fcs]');
  await expect(verdicts).toHaveText([
    /✗.*retried$/,
    /✗.*empty$/,
    /✗.*tool error$/,
    /✗.*crashed$/,
    // The bad_args call of fast_tool was retried too: both reasons, worst first.
    /✗.*bad args, retried$/,
    /✓.*ok$/,
    /✓.*ok$/,
  ]);
  // Every verdict is whole at 1440 px: nothing is cut off.
  for (const v of await verdicts.all()) expect(await fits(v)).toBe(true);

  // Nothing selected yet: the panel says how to select.
  const details = page.getByTestId('call-details');
  await expect(details).toContainText('Select a call');
  // A click selects the row, and the panel gives the API's whole sentence.
  await rows.nth(0).click();
  await expect(page).toHaveURL(/call=\d+/);
  await expect(details.getByTestId('call-reason')).toHaveText(
    /^retried: the next fast_tool call in this session started 21 ms later with different arguments\.$/,
  );
  await expect(details).toContainText('Not a first-call success');
  await expect(details).toContainText('chain 1, resolved');
  // j/k move the selection and the panel follows; the timeline highlights the same call.
  await page.keyboard.press('j');
  await expect(details.getByTestId('call-reason')).toHaveText(
    'empty result (ok, but nothing in it).',
  );
  await expect(rows.nth(1)).toHaveClass(/selected/);
  await page.keyboard.press('k');
  await expect(rows.nth(0)).toHaveClass(/selected/);
  await expect(page.getByTestId('timeline').locator('.tl-bar.selected')).toHaveCount(1);

  // The calls page: the same cell, the same panel; Enter still opens the call in its session.
  await page.goto(`${devtools.url}/calls?project=${PROJECT}&session=${WORKED}`);
  const callRows = page.getByTestId('calls').locator('tbody tr');
  await expect(callRows).toHaveCount(7);
  for (const v of await callRows.locator('[data-fcs]').all()) expect(await fits(v)).toBe(true);
  // Newest first: the last fast_tool call, a first-call success.
  await page.keyboard.press('j');
  await expect(page.getByTestId('call-details').getByTestId('call-reason')).toHaveText(
    'ok, not empty, and not retried.',
  );
  // A click on the row (its outcome cell; the Session cell is a link to the session) selects it.
  await callRows
    .filter({ hasText: 'bad args' })
    .locator('td')
    .filter({ hasText: /^bad args$/ })
    .click();
  await expect(page.getByTestId('call-details')).toContainText('bad_args');
  // A live update puts a newer call on top: the selection stays on the same call.
  await ingestAll(
    devtools,
    [
      call({
        session: WORKED,
        tool: 'late_tool',
        at: Date.parse('2026-12-02T10:00:00Z'),
        client: 'mcpulse-exercise',
      }),
    ],
    KEY,
  );
  await expect(callRows).toHaveCount(8);
  await expect(page.getByTestId('calls').locator('tbody tr.selected')).toContainText('bad args');
  await expect(page.getByTestId('call-details')).toContainText('bad_args');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/session\\?.*id=${WORKED}.*call=\\d+`));
  console.check();
});

test('retry chains show what changed between attempts, and the playground compares the texts', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  await openSession(page, devtools.url, LABELLED);
  // The page is titled by the session's name; the id stays beside it.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `triage a login bug ${LABELLED}`,
  );
  const attempts = page.getByTestId('chain-attempts').locator('tbody tr');
  await expect(attempts).toHaveCount(3);
  // The first attempt: its hash and what the SDK sent beyond the contract.
  await expect(attempts.nth(0)).toContainText(hashOf(ARGS_1));
  await expect(attempts.nth(0)).toContainText('first');
  await expect(attempts.nth(0).getByTestId('attempt-extras')).toContainText('attempt 1');
  await expect(attempts.nth(0)).toContainText('empty');
  // The second: 1.2 s later, a retry, new arguments, still empty; the attempt count moved on.
  await expect(attempts.nth(1)).toContainText('+1.20 s retry');
  await expect(attempts.nth(1).locator('[data-args]')).toHaveAttribute('data-args', 'changed');
  await expect(attempts.nth(1).getByTestId('attempt-extras')).toHaveText('attempt 1 → 2');
  // The third: the model changed too, and the response grew.
  await expect(attempts.nth(2).getByTestId('attempt-extras')).toContainText('attempt 2 → 3');
  await expect(attempts.nth(2).getByTestId('attempt-extras')).toContainText(
    'model "small" → "large"',
  );
  // 40 → 1,840 UTF-16 units: 10 → 460 tokens.
  await expect(attempts.nth(2)).toContainText('460 (+450)');
  // The selected attempt opens in the details panel, with every extra field.
  await attempts.nth(2).getByRole('button').click();
  await expect(page.getByTestId('call-extra')).toContainText('"large"');

  // One click to the playground, primed with the two hashes.
  await page.getByTestId('chain-compare').click();
  await expect(page).toHaveURL(/\/playground\?mode=compare/);
  await expect(page.getByRole('heading', { level: 1, name: 'Compare arguments' })).toBeVisible();
  // Pasted with other spacing, key order and number spelling: still the hashes the SDK sent.
  await page.getByTestId('cmp-input-A').fill('{ "q": "login bug" }');
  await page.getByTestId('cmp-input-B').fill('{"q": "login bug safari", "limit": 10.0}');
  await expect(page.getByTestId('cmp-hash-A').locator('[data-match]')).toHaveAttribute(
    'data-match',
    'yes',
  );
  await expect(page.getByTestId('cmp-hash-B').locator('[data-match]')).toHaveAttribute(
    'data-match',
    'yes',
  );
  const paths = page.getByTestId('cmp-paths').locator('tbody tr');
  await expect(paths).toHaveCount(2);
  await expect(paths.nth(0)).toContainText('limit');
  await expect(paths.nth(0)).toContainText('added');
  await expect(paths.nth(1)).toContainText('"login bug safari"');
  // A text that is not the one sent says so.
  await page.getByTestId('cmp-input-A').fill('{"q": "login"}');
  await expect(page.getByTestId('cmp-hash-A').locator('[data-match]')).toHaveAttribute(
    'data-match',
    'no',
  );
  console.check();
});

test('sessions have a name, rows are real links, and sortable headers say their order', async ({
  page,
  devtools,
  context,
}) => {
  const console = guardConsole(page);
  await page.goto(`${devtools.url}/sessions?project=${PROJECT}`);
  const labelled = page.locator(`[data-session="${LABELLED}"]`);
  const worked = page.locator(`[data-session="${WORKED}"]`);
  // Titled by the SDK's label when it sent one, else by client → first tool · start time; the
  // id under it.
  await expect(labelled.locator('.row-title')).toHaveText('triage a login bug');
  await expect(worked.locator('.row-title')).toHaveText(
    /^mcpulse-exercise → fast_tool · \d\d:\d\d:\d\d$/,
  );
  await expect(worked).toContainText(WORKED);
  await expect(page.locator(`[data-session="${HOSTILE}"] .row-title`)).toHaveText(HOSTILE_LABEL);
  expect(await page.locator('main img').count()).toBe(0);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  // The client column shows the whole name.
  const client = labelled.locator('.vclient');
  await expect(client).toHaveText('Claude Desktop (beta channel)');
  // Not clamped: the line holds the whole name (wrapping onto the row's second line if need be).
  expect(await fits(client.locator('.client-line'))).toBe(true);

  // At 1024 px nothing is clipped: the columns the session page repeats give way instead.
  await page.setViewportSize({ width: 1024, height: 800 });
  for (const h of await page.getByTestId('sessions').getByRole('columnheader').all())
    expect(await fits(h), await h.innerText()).toBe(true);
  expect(await fits(client.locator('.client-line'))).toBe(true);
  await page.setViewportSize({ width: 1440, height: 900 });

  // A real link: the href is the session page, and a middle click anywhere on the row opens it
  // in a new tab while this page stays put.
  const link = worked.getByTestId('session-link');
  await expect(link).toHaveAttribute('href', new RegExp(`/session\\?.*id=${WORKED}`));
  // Over the Calls cell, not the title: the whole row is the link's target.
  const box = (await worked.locator('.vcell.num').nth(1).boundingBox())!;
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { button: 'middle' }),
  ]);
  await tab.waitForLoadState();
  expect(tab.url()).toContain(`id=${WORKED}`);
  await tab.close();
  await expect(page).toHaveURL(/\/sessions\?/);
  // The tick box still ticks, above the link.
  await labelled.getByRole('checkbox').check();
  await expect(page).toHaveURL(/\/sessions\?/);
  // The keyboard still works: j selects, Enter opens.
  await page.locator('main h1').click();
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/session\?.*id=s_/);

  // aria-sort: on every sortable header, and only there; it follows the sort.
  await page.goto(`${devtools.url}/sessions?project=${PROJECT}`);
  const headers = page.getByTestId('sessions').getByRole('columnheader');
  const sortable = headers.filter({ has: page.getByRole('button') });
  await expect(sortable).toHaveCount(8);
  for (const h of await sortable.all()) await expect(h).toHaveAttribute('aria-sort', /.+/);
  await expect(headers.filter({ hasText: 'Last seen' })).toHaveAttribute('aria-sort', 'descending');
  await expect(headers.filter({ hasText: 'Client' })).not.toHaveAttribute('aria-sort', /.*/);
  await headers.filter({ hasText: 'Calls' }).getByRole('button').click();
  await expect(headers.filter({ hasText: 'Calls' })).toHaveAttribute('aria-sort', 'descending');
  await expect(headers.filter({ hasText: 'Last seen' })).toHaveAttribute('aria-sort', 'none');
  await headers.filter({ hasText: 'Calls' }).getByRole('button').click();
  await expect(headers.filter({ hasText: 'Calls' })).toHaveAttribute('aria-sort', 'ascending');
  // The shared header of the other tables does the same (Tools).
  await page.goto(`${devtools.url}/tools?project=${PROJECT}`);
  const toolHeaders = page.locator('th:has(button)');
  await expect(toolHeaders.first()).toBeVisible();
  expect(await toolHeaders.count()).toBeGreaterThan(3);
  for (const h of await toolHeaders.all()) await expect(h).toHaveAttribute('aria-sort', /.+/);
  console.check();
});

test('lists of calls name each session, with its id in the tooltip', async ({ page, devtools }) => {
  const console = guardConsole(page);
  // The calls page: the Session column reads the session's label, not `s_…`.
  await page.goto(`${devtools.url}/calls?project=${PROJECT}&session=${LABELLED}`);
  const names = page.getByTestId('calls').locator('a.session-name-link');
  await expect(names).toHaveCount(3);
  await expect(names.first()).toHaveText(`triage a login bug (session ${LABELLED})`);
  await expect(names.first().locator('bdi')).toHaveText('triage a login bug');
  await expect(names.first()).toHaveAttribute('title', `triage a login bug · ${LABELLED}`);
  // The tool page's failing calls: an unlabelled session is its client → first tool · time.
  await page.goto(`${devtools.url}/tool?project=${PROJECT}&name=crash_tool`);
  const failing = page.getByTestId('failing-calls').locator('a.session-name-link');
  await expect(failing).toHaveCount(1);
  await expect(failing.locator('bdi')).toHaveText(
    /^mcpulse-exercise → fast_tool · \d\d:\d\d:\d\d$/,
  );
  await expect(failing).toHaveAttribute('title', new RegExp(`· ${WORKED}$`));
  await failing.click();
  await expect(page).toHaveURL(new RegExp(`/session\\?.*id=${WORKED}.*call=\\d+`));
  console.check();
});
