/**
 * Hostile content is shown, never crashing (issue 40), through the real built `proxy` in front
 * of a hand-written server (test/proxy/servers/deep-server.ts) whose answer is 10,000 levels
 * deep and whose capabilities are too. Before, opening that answer in the message log threw
 * "Maximum call stack size exceeded" and left a blank page, and `GET /api/calls/:id` answered
 * 500. Now the call's page and the message log show the first levels with a note saying how
 * many are not shown (and Copy raw), no page error fires, the 200,000-deep arguments beside a
 * secret are kept cut with the secret redacted, and a message the proxy reports it could not
 * keep is a gap the log explains and a refusal on the Ingest log. Screenshots of the changed
 * views at 1440 and 390 px, light and dark, go to docs/design/issue-40/ with DESIGN_SHOTS=issue-40.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test, type DevtoolsServer } from './server.js';
import { spawnBuiltProxy } from './proxy-child.js';
import { guardConsole, projectOf } from './ui-helpers.js';

const KEY = 'px_e2e_hostile_depth';
// Into the design folder only when asked (DESIGN_SHOTS=issue-40): a test run never changes tracked files.
const SHOTS = process.env.DESIGN_SHOTS ? 'docs/design/issue-40' : 'test-results/issue-40';

const deep = (n: number): string => '['.repeat(n) + '"bottom"' + ']'.repeat(n);

/** One client session through the built proxy, each request written as raw text. */
async function runHostileSession(devtools: DevtoolsServer): Promise<void> {
  const url = devtools.url;
  const child = spawnBuiltProxy(
    url,
    dirname(devtools.dbPath),
    KEY,
    [process.execPath, '--import', 'tsx', 'test/proxy/servers/deep-server.ts'],
    { DEEP_SERVER_CAPABILITIES: '10000' },
  );
  const requests = [
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"hostile-e2e","version":"1.0.0"}}}',
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    // The startup it sends for tools/list marks the session proxied (its message log shows).
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"deep","arguments":{"depth":10000}}}',
    `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"api_token":"not-for-the-disk","nested":${deep(200_000)}}}}`,
  ];
  let answered = 0;
  for (const line of requests) {
    child.stdin.write(line + '\n');
    if (!line.includes('"id"')) continue;
    answered++;
    await expect.poll(() => child.out().trim().split('\n').filter(Boolean).length).toBe(answered);
  }
  child.stdin.end();
  const code = await new Promise((r) => child.once('exit', r));
  expect(code, child.err()).toBe(0);
}

/**
 * What the proxy posts when it cannot make a message's stored form (src/proxy/refused.ts): the
 * message with no body and its reason, then the session's next message — so the log has a gap at
 * #9 and the server records the refusal on the ingest log.
 */
async function postRefusal(devtools: DevtoolsServer, sessionId: string): Promise<void> {
  const at = Date.now();
  const facts = { direction: 'client', at_ms: at, truncated: false, call_started_at: null };
  const next = '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}';
  const res = await fetch(`${devtools.url}/v1/local/proxy`, {
    method: 'POST',
    headers: {
      ...devtools.headers,
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      v: 1,
      session_id: sessionId,
      messages: [
        {
          ...facts,
          seq: 9,
          method: 'tools/call',
          rpc_id: '5',
          kind: 'request',
          body: '',
          bytes: 400_116,
          refused:
            'nested 200,003 levels deep: too deep to redact, so the proxy did not keep it (RangeError)',
        },
        {
          ...facts,
          seq: 10,
          method: 'notifications/cancelled',
          rpc_id: null,
          kind: 'notification',
          body: next,
          bytes: next.length,
        },
      ],
    }),
  });
  expect(res.status, await res.text()).toBeLessThan(300);
}

/** GET an API path as JSON (the one place the page-less requests are made). */
async function api<T>(devtools: DevtoolsServer, path: string): Promise<T> {
  const res = await fetch(`${devtools.url}${path}`, { headers: devtools.headers });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** The view at 1440 and 390 px wide, light and dark, into docs/design/issue-40/. */
async function shoot(page: Page, name: string, scrollTo: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.getByTestId(scrollTo).first().scrollIntoViewIfNeeded();
      await page.waitForTimeout(150);
      await page.screenshot({ path: `${SHOTS}/${name}-${width}-${colorScheme}.png` });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a 10,000-deep answer: its call page and the message log render with the depth note', async ({
  page,
  devtools,
}) => {
  test.setTimeout(120_000);
  const console = guardConsole(page);
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await runHostileSession(devtools);
  const project = projectOf(KEY);
  const deepCalls = `/api/calls?project=${project}&tool=deep`;
  type Calls = { calls: { id: number; session_id: string }[] };
  await expect.poll(async () => (await api<Calls>(devtools, deepCalls)).calls.length).toBe(1);
  const { calls } = await api<Calls>(devtools, deepCalls);
  const call = calls[0]!;
  // The proxy posts content beside its telemetry: wait until the session's messages are in.
  const messages = `/api/messages?session=${call.session_id}&project=${project}`;
  await expect
    .poll(async () => (await api<{ messages: unknown[] }>(devtools, messages)).messages.length)
    .toBeGreaterThanOrEqual(5);
  const detail = await api<{ content: { answer_seq: number } }>(devtools, `/api/calls/${call.id}`);
  await postRefusal(devtools, call.session_id);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(
    `${devtools.url}/session?id=${call.session_id}&call=${call.id}&project=${project}`,
  );
  const content = page.getByTestId('call-content');
  await expect(content).toBeVisible();
  const note = content.getByTestId('json-depth-note');
  await expect(note).toBeVisible();
  await expect(note).toHaveText(
    /^Nested 10,00\d levels deep: the first 32 are shown, 9,9\d\d deeper levels not shown\./,
  );
  await expect(content.getByRole('button', { name: /^Copy raw/ })).toBeVisible();
  await expect(content.getByTestId('call-structured')).toContainText('deeper levels not shown');
  await shoot(page, 'call-deep-answer', 'call-content');

  // The message log: the answer opened beside its request.
  await page.goto(
    `${devtools.url}/session?id=${call.session_id}&msg=${detail.content.answer_seq}&project=${project}`,
  );
  const answer = page.getByTestId('ml-side-answer');
  await expect(answer).toBeVisible();
  await expect(answer.getByTestId('json-depth-note')).toContainText('deeper levels not shown');
  await expect(answer.locator('pre')).toContainText('"structuredContent"');
  // The 200,000-deep arguments with a secret-looking key: kept, cut, the secret redacted (the
  // engine reads JSON text piece by piece, so no depth stops it).
  await expect(page.locator('body')).not.toContainText('not-for-the-disk');
  // A message the proxy reports it could not keep is missing from the log, and the log says so.
  await expect(page.getByTestId('ml-missing')).toContainText(
    /^1 message is not in this log \(#9\): one the proxy could not keep is on the Ingest log/,
  );
  // The server's 10,000-deep capabilities, in the session's proxy panel.
  await expect(page.getByTestId('proxy-server')).toContainText('deep-server 1.0.0');
  await shoot(page, 'message-log-deep-answer', 'ml-pair');

  // The message the proxy could not keep: on the Ingest log, with the reason.
  await page.goto(`${devtools.url}/ingest?project=${project}`);
  await expect(page.getByText(/too deep to redact/).first()).toBeVisible();
  await expect(page.locator('body')).not.toContainText('not-for-the-disk');
  expect(pageErrors).toEqual([]);
  console.check();
});

test('a value that breaks its pane is said in one line; the rest of the page keeps working', async ({
  page,
  devtools,
}) => {
  test.setTimeout(120_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const project = projectOf(KEY);
  const deepCalls = `/api/calls?project=${project}&tool=deep`;
  type Calls = { calls: { id: number; session_id: string }[] };
  // The worker's server may hold the other test's session: this test's call is the new one.
  const before = new Set((await api<Calls>(devtools, deepCalls)).calls.map((c) => c.id));
  await runHostileSession(devtools);
  await expect
    .poll(async () => (await api<Calls>(devtools, deepCalls)).calls.length)
    .toBe(before.size + 1);
  const call = (await api<Calls>(devtools, deepCalls)).calls.find((c) => !before.has(c.id));
  // A shape no server sends (arguments as a number): rendering it throws inside the pane.
  await page.route(`**/api/calls/${call!.id}`, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { content: Record<string, unknown> };
    body.content.arguments = 12345;
    await route.fulfill({ response: res, json: body });
  });
  await page.goto(
    `${devtools.url}/session?id=${call!.session_id}&call=${call!.id}&project=${project}`,
  );
  const failed = page.getByTestId('content-failed');
  await expect(failed).toContainText("This call's arguments and answer could not be shown");
  await expect(failed).toContainText('The rest of the page works.');
  // The page around it is whole: the session's calls table and its message log.
  await expect(page.getByRole('region', { name: 'Calls of this session' })).toBeVisible();
  await expect(page.getByTestId('message-log')).toBeVisible();
  expect(pageErrors).toEqual([]);
});
