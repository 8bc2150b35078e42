/**
 * Two keys with one 12-character prefix are two projects in the UI (picker, warning, numbers),
 * and the PHP SDK's agreement verdicts show where they mean something: the tool page, the
 * tool-pairs panel and the session (with the SDK facts its startup carried), and its per-tool
 * fingerprints on the tool page.
 */
import { expect, test } from './server.js';
import { guardConsole, projectOf } from './ui-helpers.js';

const KEY_A = 'mp_live_rb_scenario';
const KEY_B = 'mp_live_rb_scen2';

const callsOf = (session: string, n: number) => ({
  batch: Array.from({ length: n }, (_, i) => ({
    v: 1,
    type: 'call',
    session_id: session,
    client_name: 'claude-code',
    tool_name: 'search',
    started_at: new Date(Date.UTC(2026, 11, 2, 10, 0, i * 40)).toISOString(),
    duration_ms: 10,
    outcome: 'ok',
    response_bytes: 10,
    is_empty: false,
    args_hash: '44136fa355b3',
  })),
});

test('two keys sharing a prefix are two projects: a warning, two picker entries, separate numbers', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  expect((await devtools.ingest(callsOf('s_aaaaaaaaaaaa', 10), KEY_A)).status).toBe(202);
  expect((await devtools.ingest(callsOf('s_bbbbbbbbbbbb', 9), KEY_B)).status).toBe(202);

  await page.goto(`${devtools.url}/?range=all`);
  const warning = page.getByTestId('project-prefix-warning');
  await expect(warning).toContainText('2 keys share the prefix mp_live_rb_s');
  await expect(warning).toContainText(projectOf(KEY_A));
  await expect(warning).toContainText(projectOf(KEY_B));

  const picker = page.getByLabel('Project', { exact: true });
  await expect(picker.locator(`option[value="${projectOf(KEY_A)}"]`)).toHaveText(
    `mp_live_rb_s… · ${projectOf(KEY_A)} (10 calls)`,
  );
  await picker.selectOption(projectOf(KEY_A));
  await expect(page).toHaveURL(new RegExp(`project=${projectOf(KEY_A)}`));
  await expect(page.getByTestId('card-calls')).toContainText('10');
  await picker.selectOption(projectOf(KEY_B));
  await expect(page).toHaveURL(new RegExp(`project=${projectOf(KEY_B)}`));
  await expect(page.getByTestId('card-calls')).toContainText('9');
  console.check();
});

test('agreement verdicts on the tool page, in the tool-pairs panel and in the session', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  const KEY = 'mp_live_php_agree';
  const res = await devtools.ingestCapture('php-0.1.6', KEY);
  expect(res.status).toBe(202);
  expect(res.headers.get('x-mcpulse-rejected')).toBe('0');
  const project = projectOf(KEY);

  await page.goto(`${devtools.url}/tool?name=lookup&project=${project}`);
  const onTool = page.getByTestId('agreements');
  await expect(onTool).toContainText('2 checks, 1 diverged');
  const pair = onTool.getByTestId('agreement-pair');
  await expect(pair).toHaveCount(1);
  await expect(pair).toContainText('issue_id');
  await expect(pair).toContainText('search vs lookup');
  await expect(pair).toContainText('1 of 2 diverged');
  // The latest check (30 s window) agreed.
  await expect(pair.locator('.agreement-mark')).toHaveText('agree');

  // The startup's per-tool fingerprints: hashes, and a declared policy.
  await expect(page.getByTestId('tool-fingerprints')).toContainText('across 1 startup');
  await page.goto(`${devtools.url}/tool?name=close_issue&project=${project}`);
  await expect(page.getByTestId('tool-fingerprints')).toContainText(
    'declared: needs authorization',
  );

  await page.goto(`${devtools.url}/?project=${project}`);
  await expect(page.getByTestId('pairs')).toBeVisible();
  await expect(page.getByTestId('agreements')).toContainText('issue_id');

  await page.goto(`${devtools.url}/session?id=s_7d1e2f3a4b5c&project=${project}`);
  await expect(page.getByTestId('session-sdk')).toContainText('getmcpulse/mcpulse version 0.1.6');
  await expect(page.getByTestId('session-sdk')).toContainText('over stdio');
  const checks = page.getByTestId('session-agreements').locator('li');
  await expect(checks).toHaveCount(2);
  await expect(checks.nth(0)).toContainText('agree');
  await expect(checks.nth(1)).toContainText('disagree');
  console.check();
});
