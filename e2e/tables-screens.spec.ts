/**
 * Screenshots of the tables this branch designed (sessions, a session with its retry chain and
 * details panel, calls, the playground's compare mode), light and dark, 1440 and 1024 wide,
 * filled by the demo (real MCP clients and server through our producer) plus one session from
 * an SDK that sends extra fields. Saved under `SHOTS_DIR` (default test-results/screenshots/
 * tables; docs/design/after-tables holds the committed set).
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { runDemo } from '../src/demo/index.js';
import { expect, test } from './server.js';
import { call, guardConsole, ingestAll, projectOf, startup } from './ui-helpers.js';

const KEY = 'mp_live_tables_shots';
const PROJECT = projectOf(KEY);
const DIR = process.env.SHOTS_DIR ?? 'test-results/screenshots/tables';

/** The shell scrolls inside the page, so a tall page is shot in a tall window, from the top. */
async function shoot(page: Page, name: string, height = 900): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('*')) if (el.scrollTop > 0) el.scrollTop = 0;
  });
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.waitForTimeout(200);
      await page.screenshot({ path: `${DIR}/${name}-${width}-${colorScheme}.png` });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

test('the tables, light and dark, 1440 and 1024 wide', async ({ page, devtools }) => {
  test.setTimeout(120_000);
  const console = guardConsole(page);
  const demo = await runDemo({ endpoint: devtools.url, key: KEY, fast: true });
  expect(demo.mismatches).toEqual([]);
  // One session from an SDK that sends a label and per-call extras (none of the public SDKs
  // does yet; this is what the dashboard shows when one does).
  const s = 's_5d4e0ab7c3f1';
  const at = Date.now() - 60_000;
  const client = 'Claude Desktop (beta channel)';
  await ingestAll(
    devtools,
    [
      { ...startup(s, [['search_issues', 412]], client), session_label: 'weekly triage sweep' },
      {
        ...call({
          session: s,
          tool: 'search_issues',
          at,
          hash: '5e0c9bd1a2f4',
          empty: true,
          client,
        }),
        attempt: 1,
        model: 'small',
      },
      {
        ...call({
          session: s,
          tool: 'search_issues',
          at: at + 1200,
          hash: '8a71f0d2c9e3',
          bytes: 1840,
          client,
        }),
        attempt: 2,
        model: 'large',
      },
    ],
    KEY,
  );

  await page.goto(`${devtools.url}/sessions?project=${PROJECT}`);
  const triage = page.locator('[data-session]', { hasText: 'triage a login bug' }).first();
  await expect(triage).toBeVisible();
  await shoot(page, 'sessions');

  const id = await triage.getAttribute('data-session');
  await page.goto(`${devtools.url}/session?project=${PROJECT}&id=${id}`);
  await page.getByTestId('session-calls').locator('tbody tr').first().click();
  await expect(page.getByTestId('call-reason')).toBeVisible();
  await shoot(page, 'session', 1500);

  await page.goto(`${devtools.url}/session?project=${PROJECT}&id=${s}`);
  await page.getByTestId('session-calls').locator('tbody tr').nth(1).click();
  await shoot(page, 'session-extras', 1200);

  await page.goto(`${devtools.url}/calls?project=${PROJECT}`);
  await page.getByTestId('calls').locator('tbody tr').nth(3).click();
  await expect(page.getByTestId('call-reason')).toBeVisible();
  await shoot(page, 'calls');

  await page.goto(`${devtools.url}/session?project=${PROJECT}&id=${id}`);
  await page.getByTestId('chain-compare').first().click();
  await page.getByTestId('cmp-input-A').fill('{"query": "login crash"}');
  await page.getByTestId('cmp-input-B').fill('{\n  "query": "login error on Safari"\n}');
  await expect(page.getByTestId('cmp-paths')).toBeVisible();
  await shoot(page, 'playground-compare');
  console.check();
});
