/**
 * The design review's picture set: every page, light and dark, at 1440 and 1024 px wide, with
 * the demo's data plus the three SDK captures. Written to docs/design/<DESIGN_SHOTS>/ when that
 * variable is set (`before` / `after`), else to test-results/design/ (an artifact only).
 */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { expect, test } from './server.js';
import { projectOf } from './ui-helpers.js';

const run = promisify(execFile);
const KEY = 'mp_live_design_shots';
const OUT = process.env.DESIGN_SHOTS
  ? `docs/design/${process.env.DESIGN_SHOTS}`
  : 'test-results/design';

test('the design review picture set', async ({ page, devtools }) => {
  test.setTimeout(300_000);
  await run(
    process.execPath,
    ['dist/cli/main.js', 'demo', '--url', devtools.url, '--once', '--fast', '--key', KEY],
    { timeout: 120_000 },
  );
  for (const c of ['ts-sdk-exercise', 'go-style', 'dotnet-style'] as const)
    expect((await devtools.ingestCapture(c, KEY)).status).toBe(202);
  const q = `project=${projectOf(KEY)}`;
  await page.goto(`${devtools.url}/sessions?${q}`);
  await expect(page.locator('[data-session]').first()).toBeVisible();
  const first = await page.locator('[data-session]').first().getAttribute('data-session');
  const second = await page.locator('[data-session]').nth(1).getAttribute('data-session');
  const pages: [string, string][] = [
    ['overview', `/?${q}`],
    ['overview-empty-filter', `/?${q}&tool=nonexistent`],
    ['sessions', `/sessions?${q}`],
    ['session', `/session?${q}&id=${first}`],
    ['compare', `/compare?${q}&a=${first}&b=${second}`],
    ['tools', `/tools?${q}`],
    ['tool', `/tool?${q}&name=search_issues`],
    ['calls', `/calls?${q}`],
    ['sizes', `/sizes?${q}`],
    ['ingest', `/ingest?${q}`],
    ['playground', `/playground`],
    ['setup', `/setup`],
    ['settings', `/settings`],
  ];
  mkdirSync(OUT, { recursive: true });
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [name, path] of pages) {
      await page.goto(devtools.url + path);
      await expect(page.locator('main h1').first()).toBeVisible();
      await page.waitForTimeout(700);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await page.waitForTimeout(200);
        await page.screenshot({
          path: `${OUT}/${name}-${width}-${colorScheme}.png`,
          fullPage: true,
        });
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
  }
});
