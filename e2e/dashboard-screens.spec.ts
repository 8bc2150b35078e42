/**
 * Every page, light and dark, filled by the demo command (a real instrumented MCP server and
 * scripted clients), saved under test-results/screenshots/ for review. Also checks that no page
 * logs an error or a CSP violation while doing so.
 */
import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from './server.js';
import { guardConsole, projectOf, shootBoth } from './ui-helpers.js';

const run = promisify(execFile);
const KEY = 'mp_live_demo_screens';

test('every page renders with demo data in both colour schemes', async ({ page, devtools }) => {
  test.setTimeout(120_000);
  const console = guardConsole(page);
  await run(
    process.execPath,
    ['dist/cli/main.js', 'demo', '--url', devtools.url, '--once', '--fast', '--key', KEY],
    // The dashboard's own account and home: demo finds the owner token there itself.
    { timeout: 90_000, env: { ...process.env, HOME: dirname(devtools.dbPath) } },
  );
  const q = `project=${projectOf(KEY)}`;
  await page.goto(`${devtools.url}/sessions?${q}`);
  await expect(page.locator('[data-session]').first()).toBeVisible();
  const first = await page.locator('[data-session]').first().getAttribute('data-session');
  const second = await page.locator('[data-session]').nth(1).getAttribute('data-session');
  const pages: [string, string][] = [
    ['demo-overview', `/?${q}`],
    ['demo-sessions', `/sessions?${q}`],
    ['demo-session', `/session?${q}&id=${first}`],
    ['demo-compare', `/compare?${q}&a=${first}&b=${second}`],
    ['demo-tools', `/tools?${q}`],
    ['demo-tool', `/tool?${q}&name=search_issues`],
    ['demo-calls', `/calls?${q}`],
    ['demo-sizes', `/sizes?${q}`],
    ['demo-ingest', `/ingest?${q}`],
    ['demo-playground', `/playground`],
    ['demo-setup', `/setup`],
  ];
  for (const [name, path] of pages) {
    await page.goto(devtools.url + path);
    await expect(page.locator('main h1').first()).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    // Let charts measure and live data settle before the picture.
    await page.waitForTimeout(400);
    await shootBoth(page, name);
  }
  console.check();
});
