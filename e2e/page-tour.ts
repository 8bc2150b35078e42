/**
 * Every page of the dashboard with realistic data behind it: the demo command (a real
 * instrumented MCP server and scripted clients) plus the three SDK captures, under one key.
 * Shared by the design picture set and the accessibility check so both walk the same pages.
 */
import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { expect, type Page } from '@playwright/test';
import type { DevtoolsServer } from './server.js';
import { projectOf } from './ui-helpers.js';

const run = promisify(execFile);

/** Fills the server and answers `[name, path]` for every page, detail pages included. */
export async function seedTour(
  page: Page,
  devtools: DevtoolsServer,
  key: string,
): Promise<[string, string][]> {
  await run(
    process.execPath,
    ['dist/cli/main.js', 'demo', '--url', devtools.url, '--once', '--fast', '--key', key],
    // The dashboard's own home: demo finds the owner token there itself.
    { timeout: 120_000, env: { ...process.env, HOME: dirname(devtools.dbPath) } },
  );
  for (const c of ['ts-sdk-exercise', 'go-style', 'dotnet-style'] as const)
    expect((await devtools.ingestCapture(c, key)).status).toBe(202);
  const q = `project=${projectOf(key)}`;
  await page.goto(`${devtools.url}/sessions?${q}`);
  await expect(page.locator('[data-session]').first()).toBeVisible();
  const first = await page.locator('[data-session]').first().getAttribute('data-session');
  const second = await page.locator('[data-session]').nth(1).getAttribute('data-session');
  return [
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
}
