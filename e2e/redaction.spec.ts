/**
 * Issue 40: the UI says what was redacted and where. The built proxy in front of the real
 * `server-everything`, whose `echo` arguments and answer and whose `get-env` answer carry an
 * OpenAI key, a GitHub token, an AWS key id, a JWT, URL credentials and an `access_token`
 * parameter (fake, built at run time): the call details and the message log show a badge per
 * redacted value with its kind, and "N values redacted"; the page text holds none of the
 * secrets. Settings → Redaction shows the rules and previews pasted text. Screenshots of both
 * at 1440, 1024 and 390 px, light and dark, go to docs/design/issue-40/ with DESIGN_SHOTS=issue-40.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Page } from '@playwright/test';
import { fakeSecrets, ISSUE_40_KINDS, secretValues } from '../test/redact/fake-secrets.js';
import { expect, test, type DevtoolsServer } from './server.js';
import { spawnBuiltProxy } from './proxy-child.js';
import { guardConsole, projectOf } from './ui-helpers.js';

const KEY = 'px_e2e_redaction';
const KINDS = ISSUE_40_KINDS;
const SHOTS = process.env.DESIGN_SHOTS ? 'docs/design/issue-40' : 'test-results/issue-40';

/** A GET of the dashboard's API with the owner token the printed link carried. */
const getApi = async <T>(devtools: DevtoolsServer, path: string): Promise<T> =>
  (await (await fetch(`${devtools.url}${path}`, { headers: devtools.headers })).json()) as T;

/**
 * The built proxy over server-everything: echo with the secrets, then get-env. It runs with the
 * dashboard's home, so it finds the owner token there as a user's proxy would.
 */
async function runProxiedSession(
  devtools: DevtoolsServer,
  s: ReturnType<typeof fakeSecrets>,
): Promise<string> {
  const url = devtools.url;
  const message = `openai ${s.openai}; github ${s.github}; aws ${s.aws}; jwt ${s.jwt}; clone ${s.url}; fetch ${s.tokenUrl}`;
  const child = spawnBuiltProxy(
    url,
    dirname(devtools.dbPath),
    KEY,
    [
      process.execPath,
      'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
      'stdio',
    ],
    {
      OPENAI_API_KEY: s.openai,
      MCP_FIXTURE_GITHUB: s.github,
      MCP_FIXTURE_AWS: s.aws,
      MCP_FIXTURE_JWT: s.jwt,
      MCP_FIXTURE_REPO: s.url,
      MCP_FIXTURE_FEED: s.tokenUrl,
    },
  );
  const answered = (id: number) =>
    child
      .out()
      .split('\n')
      .some((l) => l.includes(`"id":${id}`) && /"(result|error)"/.test(l));
  const requests: [number, string, unknown][] = [
    [
      1,
      'initialize',
      {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'e2e-redaction-client', version: '1.0.0' },
      },
    ],
    // The startup a `tools/list` sends is what marks the session as proxied.
    [2, 'tools/list', {}],
    [3, 'tools/call', { name: 'echo', arguments: { message } }],
    [4, 'tools/call', { name: 'get-env', arguments: {} }],
  ];
  for (const [id, method, params] of requests) {
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    await expect.poll(() => answered(id), { timeout: 15_000 }).toBe(true);
    if (id === 1)
      child.stdin.write(
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n',
      );
  }
  child.stdin.end();
  const code = await new Promise((r) => child.once('exit', r));
  expect(code, child.err()).toBe(0);
  let session = '';
  await expect
    .poll(async () => {
      const r = await getApi<{ calls: { session_id: string }[] }>(
        devtools,
        `/api/calls?project=${projectOf(KEY)}`,
      );
      session = r.calls[0]?.session_id ?? '';
      return r.calls.length;
    })
    .toBe(2);
  return session;
}

/** axe's WCAG 2 AA violations on the page in both themes (badges' contrast included). */
async function axeViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForTimeout(150);
    const result = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    for (const v of result.violations)
      found.push(`${colorScheme}: ${v.id} ×${v.nodes.length} ${v.nodes[0]?.target.join(' ')}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

/** The page at 1440, 1024 and 390 px, light and dark, under SHOTS. */
async function shoot(page: Page, name: string, focus?: () => Promise<void>): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1440, 1024, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await focus?.();
    await page.waitForTimeout(300);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.waitForTimeout(150);
      await page.screenshot({ path: `${SHOTS}/${name}-${width}-${colorScheme}.png` });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('the UI shows where each secret was redacted, and none of them', async ({
  page,
  devtools,
}) => {
  test.setTimeout(120_000);
  const console = guardConsole(page);
  const s = fakeSecrets();
  const session = await runProxiedSession(devtools, s);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${devtools.url}/session?id=${session}&project=${projectOf(KEY)}`);

  // The message log: rows that lost values say so.
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByTestId('ml-row-redacted').first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });

  // Call details of echo: a badge per value in the arguments, the count over the call.
  await page.getByTestId('session-calls').locator('tbody tr').first().click();
  const details = page.getByTestId('call-details');
  const args = details.getByTestId('call-arguments');
  for (const kind of KINDS)
    await expect(args.locator(`[data-testid="redacted-marker"][data-kind="${kind}"]`)).toHaveCount(
      1,
    );
  await expect(args.getByText('redacted: github-token')).toHaveAttribute('title', /GitHub token/);
  await expect(details.getByTestId('call-redacted')).toContainText('12 values redacted');
  await shoot(page, 'call-details', () => details.scrollIntoViewIfNeeded());

  // The request and answer in the message log, each with its own summary and badges.
  await details.getByTestId('call-in-log').click();
  const pair = page.getByTestId('ml-pair');
  await expect(pair.getByTestId('ml-redacted-request')).toContainText('6 values redacted');
  await expect(pair.getByTestId('ml-redacted-answer')).toContainText('6 values redacted');
  for (const kind of KINDS)
    await expect(pair.getByTestId('ml-side-answer').locator(`[data-kind="${kind}"]`)).toHaveCount(
      1,
    );
  expect(await axeViolations(page)).toEqual([]);
  // The details overlay the log on a narrow window: closed, so the pair is what is shown.
  await page.getByRole('button', { name: 'Close details' }).click();
  await shoot(page, 'message-pair', () => pair.scrollIntoViewIfNeeded());

  // get-env's answer: the OpenAI key by its variable's name, the others by their format.
  await page.getByTestId('session-calls').locator('tbody tr').nth(1).click();
  const env = page.getByTestId('call-details').getByTestId('call-answer-text');
  await expect(env.locator('[data-kind="key-name"]').first()).toBeVisible();
  for (const kind of KINDS.slice(1))
    await expect(env.locator(`[data-kind="${kind}"]`).first()).toBeVisible();

  const text = await page.locator('body').innerText();
  for (const secret of secretValues(s)) expect(text).not.toContain(secret);
  console.check();
});

test('Settings → Redaction: the rules in force, user rules, a preview', async ({
  page,
  devtools,
}) => {
  test.setTimeout(120_000);
  const console = guardConsole(page, { allow: [/400 \(Bad Request\)/] });
  const s = fakeSecrets();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${devtools.url}/settings`);
  const panel = page.getByTestId('redaction');
  await expect(panel.getByRole('list', { name: 'Secret key names' })).toContainText(
    'authorization',
  );
  await expect(panel.getByRole('list', { name: 'Secret formats' })).toContainText(
    'url-credentials',
  );

  // A bad pattern is refused with the server's sentence.
  await panel.getByTestId('redaction-patterns').fill('/(unclosed/');
  await panel.getByRole('button', { name: 'Save rules' }).click();
  await expect(panel.getByTestId('redaction-error')).toContainText(
    'not a valid regular expression',
  );
  await panel.getByTestId('redaction-patterns').fill('/ord-(?<secret>\\d{6})/');
  await panel.getByTestId('redaction-keys').fill('session_pin');
  await panel.getByRole('button', { name: 'Save rules' }).click();
  await expect(panel.getByRole('status')).toContainText('Saved');

  await panel
    .getByTestId('redaction-preview-input')
    .fill(
      `Order ord-123456 by ${s.github}, {"session_pin": "0000"}\nBearer ${s.bearer} at ${s.url}`,
    );
  await panel.getByRole('button', { name: 'Preview redaction' }).click();
  const result = panel.getByTestId('redaction-preview-result');
  await expect(result.getByTestId('redaction-preview-summary')).toContainText('4 values redacted');
  await expect(result.locator('[data-kind="user-pattern"]')).toHaveCount(1);
  await expect(result).not.toContainText(s.github);
  expect(await axeViolations(page)).toEqual([]);
  await shoot(page, 'settings-redaction', () => panel.scrollIntoViewIfNeeded());
  console.check();
});
