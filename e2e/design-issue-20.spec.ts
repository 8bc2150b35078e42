/**
 * Issue 20's design review, read through a real server and a real browser: the worst tool
 * first in Insights at any sample size, filter chips and empty states that name every filter,
 * a sortable and searchable Calls table, page titles per entity, and no sideways scroll on
 * narrow windows.
 */
import { expect, test, type DevtoolsServer } from './server.js';
import { call, guardConsole, ingestAll, projectOf, sessionId, startup } from './ui-helpers.js';

const KEY = 'mp_live_issue_20';
const Q = `project=${projectOf(KEY)}`;

/**
 * A fresh database with the review's cases: sync_calendar crashes on 14 of 14 calls (under
 * the 20-call minimum), search_tickets gets bad arguments 10 times running, fetch_url is busy
 * and a third of its answers are empty, get_issue is healthy and answers in under a millisecond.
 */
async function seedReview(devtools: DevtoolsServer): Promise<void> {
  const t0 = Date.now() - 3_600_000;
  const payloads: unknown[] = [];
  const tools: [string, number][] = [
    ['sync_calendar', 900],
    ['search_tickets', 1200],
    ['fetch_url', 700],
    ['get_issue', 400],
  ];
  for (let s = 0; s < 6; s++) {
    const session = sessionId(0x2000 + s);
    const client = s % 2 ? 'windsurf' : 'claude-code';
    payloads.push(startup(session, tools, client));
    let at = t0 + s * 60_000;
    const add = (c: Omit<Parameters<typeof call>[0], 'session' | 'at' | 'client'>): void => {
      payloads.push(call({ ...c, session, client, at: (at += 40_000) }));
    };
    for (let i = 0; i < (s < 2 ? 3 : 2); i++)
      add({ tool: 'sync_calendar', outcome: 'crashed', ms: 30, hash: `c${s}${i}`.padEnd(12, '0') });
    for (let i = 0; i < 10; i++)
      add({
        tool: 'fetch_url',
        empty: i % 3 === 0,
        ms: 40 + i * 13,
        hash: `f${s}${i}`.padEnd(12, '0'),
      });
    for (let i = 0; i < 3; i++)
      add({ tool: 'get_issue', ms: 0, hash: `d${s}${i}`.padEnd(12, '0') });
  }
  // search_tickets: 10 refusals in a row in one session, 31 s apart (separate calls).
  const session = sessionId(0x2fff);
  payloads.push(startup(session, tools, 'cursor'));
  for (let i = 0; i < 10; i++)
    payloads.push(
      call({
        session,
        client: 'cursor',
        tool: 'search_tickets',
        outcome: 'bad_args',
        at: t0 + i * 31_000,
        hash: `b${i}`.padEnd(12, '0'),
      }),
    );
  await ingestAll(devtools, payloads, KEY);
}

const seeded = new Map<string, Promise<void>>();
function seed(devtools: DevtoolsServer): Promise<void> {
  if (!seeded.has(devtools.url)) seeded.set(devtools.url, seedReview(devtools));
  return seeded.get(devtools.url)!;
}

test('the 14-of-14 crashing tool comes first in Insights, on the Overview and the Tools page', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  await seed(devtools);
  await page.goto(`${devtools.url}/?${Q}`);
  const first = page.getByTestId('insights').locator('li.insight').first();
  await expect(first).toHaveAttribute('data-tool', 'sync_calendar');
  await expect(first).toHaveAttribute('data-insight', 'crashes');
  await expect(first.locator('.insight-title')).toHaveText(
    'sync_calendar crashed on 14 of 14 calls',
  );
  // The line under the title says something else than the title.
  await expect(first.locator('.insight-detail')).not.toContainText('14 of 14');
  // The bad-args streak is there too, below the crash.
  await expect(page.locator('[data-insight="bad_args_streak"]')).toContainText('10 of 10');
  await expect(page.locator('[data-insight="bad_args_streak"]')).toContainText('in a row');
  // Severities rank: not every insight is HIGH.
  const sevs = await page.locator('li.insight .sev').allTextContents();
  expect(new Set(sevs.map((s) => s.toLowerCase())).size).toBeGreaterThan(1);
  // The title opens the crashed calls.
  await first.locator('.insight-title').click();
  await expect(page).toHaveURL(/\/calls\?.*outcome=crashed/);
  await expect(page.getByTestId('calls-count')).toHaveText('14 calls');

  // The Tools page lists every insight, the worst first, and sorts what fails first.
  await page.goto(`${devtools.url}/tools?${Q}`);
  const list = page.locator('#insights');
  await expect(list.locator('li.insight').first()).toHaveAttribute('data-tool', 'sync_calendar');
  const firstRow = page.getByTestId('tools').locator('tbody tr').first();
  await expect(firstRow).toContainText('sync_calendar');
  console.check();
});

test('filter chips for every filter, each removable, clear all; the empty state names both', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  await seed(devtools);
  // windsurf has calls, and crashes — but no crashed fetch_url call.
  await page.goto(`${devtools.url}/calls?${Q}&outcome=crashed&client=windsurf&tool=fetch_url`);
  const chips = page.getByTestId('filter-chips');
  await expect(chips.getByTestId('filter-outcome')).toContainText('crashed');
  await expect(chips.getByTestId('filter-client')).toContainText('windsurf');
  await expect(chips.getByTestId('filter-tool')).toContainText('fetch_url');
  const none = page.getByTestId('no-match');
  await expect(none).toContainText('tool = fetch_url');
  await expect(none).toContainText('client = windsurf');
  await expect(none).toContainText('outcome = crashed');
  // Removing one chip keeps the others.
  await chips.getByRole('button', { name: 'Clear tool filter' }).click();
  await expect(page).not.toHaveURL(/tool=/);
  await expect(page).toHaveURL(/outcome=crashed/);
  await expect(page.getByTestId('calls-count')).toHaveText('7 calls');
  await chips.getByRole('button', { name: 'Clear all' }).click();
  await expect(page).not.toHaveURL(/outcome=|client=/);
  await expect(page).toHaveURL(new RegExp(Q));
  await expect(page.getByTestId('filter-chips')).toHaveCount(0);
  console.check();
});

test('the Calls page sorts by a column, filters by text, counts exactly, keeps the selection in the URL', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  await seed(devtools);
  await page.goto(`${devtools.url}/calls?${Q}`);
  await expect(page.getByTestId('calls-count')).toHaveText('102 calls');
  const table = page.getByTestId('calls');
  // Sub-millisecond durations read as such.
  await expect(table.locator('tbody')).toContainText('< 1 ms');
  // Session and client columns.
  await expect(table.locator('thead')).toContainText('Session');
  await expect(table.locator('thead')).toContainText('Client');

  await table.getByRole('button', { name: /^Duration/ }).click();
  await expect(page).toHaveURL(/sort=-duration/);
  const durations = async (): Promise<string[]> =>
    (await table.locator('tbody tr td:nth-child(4)').allTextContents()).slice(0, 5);
  expect((await durations())[0]).toBe('157 ms');
  await table.getByRole('button', { name: /^Duration/ }).click();
  await expect(page).toHaveURL(/sort=duration/);
  expect((await durations())[0]).toBe('< 1 ms');

  await page.getByLabel('Filter calls').fill('search_t');
  await expect(page).toHaveURL(/q=search_t/);
  await expect(page.getByTestId('calls-count')).toHaveText('10 calls');
  const tools = await table.locator('tbody tr td:nth-child(2)').allTextContents();
  expect(new Set(tools)).toEqual(new Set(['search_tickets']));
  await expect(page.getByTestId('filter-q')).toContainText('search_t');

  // A selected row is in the URL and survives a reload.
  await table.locator('tbody tr').nth(2).click();
  await expect(page).toHaveURL(/call=\d+/);
  const id = new URL(page.url()).searchParams.get('call')!;
  await page.reload();
  await expect(table.locator(`tbody tr[data-call="${id}"]`)).toHaveClass(/selected/);
  console.check();
});

test('document.title names the page and the entity', async ({ page, devtools }) => {
  await seed(devtools);
  await page.goto(`${devtools.url}/tool?${Q}&name=fetch_url`);
  await expect(page).toHaveTitle('fetch_url · Tools · MCPulse Devtools');
  await page.goto(`${devtools.url}/calls?${Q}`);
  await expect(page).toHaveTitle('Calls · MCPulse Devtools');
  await page.goto(`${devtools.url}/session?${Q}&id=${sessionId(0x2fff)}`);
  await expect(page.locator('main h1')).toBeVisible();
  const heading = (await page.locator('main h1 bdi').first().textContent())!;
  await expect(page).toHaveTitle(`${heading} · Sessions · MCPulse Devtools`);
  await page.goto(`${devtools.url}/?${Q}`);
  await expect(page).toHaveTitle('MCPulse Devtools');
});

test('no page scrolls sideways at 360, 768 or 1024 px', async ({ page, devtools }) => {
  test.setTimeout(120_000);
  await seed(devtools);
  const s = sessionId(0x2000);
  const paths = [
    `/?${Q}`,
    `/sessions?${Q}`,
    `/session?${Q}&id=${s}`,
    `/compare?${Q}&a=${s}&b=${sessionId(0x2001)}`,
    `/tools?${Q}`,
    `/tool?${Q}&name=sync_calendar`,
    `/calls?${Q}&outcome=crashed&client=windsurf`,
    `/sizes?${Q}`,
    `/ingest?${Q}`,
    '/playground',
    '/setup',
    '/settings',
  ];
  const wide: string[] = [];
  for (const width of [360, 768, 1024]) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of paths) {
      await page.goto(devtools.url + path);
      await expect(page.locator('main h1').first()).toBeVisible();
      await page.waitForTimeout(300);
      const m = await page.evaluate(() => ({
        doc: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
        main: [
          document.querySelector('.main')!.scrollWidth,
          document.querySelector('.main')!.clientWidth,
        ],
        // The page's own scroll box: content wider than it would scroll sideways inside.
        content: [
          document.querySelector('main.content')!.scrollWidth,
          document.querySelector('main.content')!.clientWidth,
        ],
      }));
      // Tables reflow (dropping low-priority columns) instead of scrolling inside their box.
      const boxes = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.table-wrap.kit')]
          .filter((el) => el.scrollWidth > el.clientWidth + 1)
          .map((el) => `${el.getAttribute('aria-label')} ${el.scrollWidth}/${el.clientWidth}`),
      );
      if (/^\/(compare|session)\?/.test(path) && boxes.length > 0)
        wide.push(`${width} ${path}: tables scroll sideways: ${boxes.join(', ')}`);
      if (m.doc[0]! > m.doc[1]! || m.main[0]! > m.main[1]! || m.content[0]! > m.content[1]!)
        wide.push(
          `${width} ${path}: document ${m.doc.join('/')}, main ${m.main.join('/')}, content ${m.content.join('/')}`,
        );
    }
  }
  expect(wide, wide.join('\n')).toEqual([]);
});
