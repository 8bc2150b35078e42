/**
 * The demo as a newcomer meets it: our producer, instrumenting the demo's real MCP server and
 * driven by real MCP clients, sends through the ingest endpoint of the e2e server — and every
 * page of the dashboard has data. Selectors are page headings and visible text, so the spec
 * survives layout changes; the numbers are the ones the demo's scripts determine (docs/cli.md,
 * "What the demo sends").
 */
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { runDemo, type DemoResult } from '../src/demo/index.js';
import { expect, test } from './server.js';
import { guardConsole } from './ui-helpers.js';

// A key of its own (its first 12 characters name the project), so other specs' data and a
// retried run never mix into these numbers.
const KEY = `e2edemo${randomBytes(3).toString('hex').slice(0, 5)}`;
const PROJECT = KEY.slice(0, 12);

/** Opens a page and checks it is the page asked for, with data rather than the empty state. */
async function open(
  page: Page,
  url: string,
  heading: string | RegExp,
): Promise<ReturnType<Page['locator']>> {
  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  const main = page.locator('main');
  await expect(main.getByText('Waiting for the first payload')).toHaveCount(0);
  await expect(main.getByRole('link', { name: /Point an SDK here/ })).toHaveCount(0);
  return main;
}

test('the demo fills every page of the dashboard', async ({ page, devtools }) => {
  test.setTimeout(90_000);
  const console = guardConsole(page);
  const result: DemoResult = await runDemo({ endpoint: devtools.url, key: KEY, fast: true });
  expect(result.mismatches).toEqual([]);
  expect(result).toMatchObject({
    calls: 46,
    startups: 8,
    delivery: { sent: 54, dropped: 0, failedBatches: 0 },
  });
  expect(result.sessions).toHaveLength(7);
  const q = `project=${PROJECT}`;
  const [triage, , sso] = result.sessions as [string, string, string];

  // Overview: 46 calls, first-call success 23 of 46.
  let main = await open(page, `${devtools.url}/?${q}`, 'Overview');
  await expect(main).toContainText('46');
  await expect(main).toContainText('50.0%');
  // The worst news first: the crashing tool; the dead archive_project is on the Tools page.
  await expect(main).toContainText('sync_calendar crashed');
  for (const client of [
    'claude-ai',
    'cursor-vscode',
    'claude-code',
    'Visual Studio Code',
    'windsurf',
  ]) {
    await expect(main).toContainText(client);
  }

  // Sessions: all seven.
  main = await open(page, `${devtools.url}/sessions?${q}`, 'Sessions');
  for (const id of result.sessions) await expect(main).toContainText(id);

  // One session: the login triage, with its two resolved retry chains.
  main = await open(page, `${devtools.url}/session?${q}&id=${triage}`, triage);
  for (const tool of ['search_issues', 'get_issue', 'read_activity', 'generate_report']) {
    await expect(main).toContainText(tool);
  }
  await expect(main).toContainText('resolved');
  // The SSO outage: two clients in one session, and a chain that never resolves.
  main = await open(page, `${devtools.url}/session?${q}&id=${sso}`, sso);
  await expect(main).toContainText('claude-code');
  await expect(main).toContainText('Visual Studio Code');
  await expect(main).toContainText('unresolved');

  // Tools: search_issues at 5 of 22 first-call successes; the dead and the unregistered tool.
  main = await open(page, `${devtools.url}/tools?${q}`, 'Tools');
  for (const tool of [
    'search_issues',
    'get_issue',
    'export_board',
    'archive_project',
    'search_tickets',
  ]) {
    await expect(main).toContainText(tool);
  }
  await expect(main).toContainText('22.7%');
  main = await open(page, `${devtools.url}/tool?${q}&name=search_issues`, 'search_issues');
  await expect(main).toContainText('22.7%');
  await expect(main).toContainText('22');

  // Calls: every one of the 46.
  main = await open(page, `${devtools.url}/calls?${q}`, 'Calls');
  await expect(main).toContainText('46');
  await expect(main).toContainText('sync_calendar');

  // Sizes: the registered schemas total 3,090 units; export_board returned 14,072.
  main = await open(page, `${devtools.url}/sizes?${q}`, 'Sizes');
  await expect(main).toContainText('3,090');
  await expect(main).toContainText('export_board');

  // Ingest log: the demo's requests, accepted.
  main = await open(page, `${devtools.url}/ingest?${q}`, 'Ingest log');
  await expect(main).toContainText('202');

  // Setup shows where SDKs point.
  main = await open(page, `${devtools.url}/setup?${q}`, 'Setup');
  await expect(main).toContainText(devtools.url);
  console.check();
});
