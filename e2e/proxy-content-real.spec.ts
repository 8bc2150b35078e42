/**
 * The content views fed by the real `proxy` command (built CLI) in front of the hand-written
 * Python server: what the proxy captured from a real exchange is what the session page shows —
 * the client's and server's initialize facts, every message (a method that is not a tool call
 * among them), and a bad_args retry chain with the server's error text and the argument diff.
 */
import { dirname } from 'node:path';
import { expect, test } from './server.js';
import { spawnBuiltProxy } from './proxy-child.js';
import { guardConsole, projectOf } from './ui-helpers.js';

const KEY = 'px_e2e_content_real';

/** Runs the built proxy in front of the Python server with one scripted client session. */
async function runProxiedSession(url: string, home: string): Promise<void> {
  const child = spawnBuiltProxy(url, home, KEY, ['python3', 'test/proxy/servers/plain_server.py']);
  const lines = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: { roots: { listChanged: true } },
        clientInfo: { name: 'e2e-real-client', version: '3.1.4' },
      },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { jsonrpc: '2.0', id: 3, method: 'resources/list' },
    {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'strict', arguments: { n: '2' } },
    },
    {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'strict', arguments: { n: 2 } },
    },
  ];
  // As a client at work: each request waits for its answer before the next goes out.
  let answered = 0;
  for (const l of lines) {
    child.stdin.write(JSON.stringify(l) + '\n');
    if (!('id' in l)) continue;
    answered++;
    await expect.poll(() => child.out().trim().split('\n').filter(Boolean).length).toBe(answered);
  }
  child.stdin.end();
  const code = await new Promise((r) => child.once('exit', r));
  expect(code, child.err()).toBe(0);
  expect(child.out().trim().split('\n'), child.out()).toHaveLength(5);
}

test('what the real proxy captured is what the session page shows', async ({ page, devtools }) => {
  const console = guardConsole(page);
  await runProxiedSession(devtools.url, dirname(devtools.dbPath));
  await page.goto(`${devtools.url}/sessions?project=${projectOf(KEY)}`);
  const row = page.locator('[data-session]').first();
  await expect(row).toBeVisible();
  await row.click();

  await expect(page.getByTestId('proxy-client')).toContainText('e2e-real-client 3.1.4');
  await expect(page.getByTestId('proxy-client')).toContainText('roots');
  await expect(page.getByTestId('proxy-server')).toContainText('plain-python 1.0.0');
  // 5 requests, 5 answers, 1 notification: the proxy may still be posting when the page opens.
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByTestId('ml-count')).toHaveText('11 messages', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await page.getByTestId('ml-method').selectOption('resources/list');
  const rows = page.getByTestId('message-log').locator('.ml-row');
  await expect(rows).toHaveCount(2);
  await rows.nth(1).click();
  await expect(page.getByTestId('ml-side-answer')).toContainText('no method resources/list');

  const story = page.getByTestId('chain-story');
  await expect(story.getByTestId('chain-error')).toHaveText('n: expected an integer');
  await expect(story.getByTestId('chain-diff')).toContainText('n: "2" → 2');
  console.check();
});
