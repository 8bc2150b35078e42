/**
 * The proxy in the dashboard: a session recorded by the real `proxy` command (built CLI, in
 * front of the hand-written Python server) carries a "proxied" badge in the sessions list and on
 * its page, with what a proxy cannot see; an SDK's session does not. The Setup page builds
 * client config for the command the user types.
 */
import { dirname } from 'node:path';
import { CLI_WORDS, expect, test } from './server.js';
import { spawnBuiltProxy } from './proxy-child.js';
import { call, guardConsole, ingestAll, projectOf, shootBoth, startup } from './ui-helpers.js';

const KEY = 'px_e2e_proxied';

/** Runs the built proxy in front of the Python server, with three requests and EOF. */
async function proxiedSession(url: string, home: string): Promise<string> {
  const child = spawnBuiltProxy(url, home, KEY, ['python3', 'test/proxy/servers/plain_server.py']);
  const lines = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'e2e-raw-client', version: '1' },
      },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'hi' } },
    },
    { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'fail', arguments: {} } },
  ];
  child.stdin.end(lines.map((l) => JSON.stringify(l) + '\n').join(''));
  const code = await new Promise((r) => child.once('exit', r));
  expect(code).toBe(0);
  expect(child.out().trim().split('\n')).toHaveLength(4);
  return child.out();
}

test('a proxied session is marked in the list and on its page; an SDK session is not', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  await proxiedSession(devtools.url, dirname(devtools.dbPath));
  const sdkSession = 's_00000000e2e5';
  await ingestAll(
    devtools,
    [
      startup(sdkSession, [['echo', 80]]),
      call({ session: sdkSession, tool: 'echo', at: Date.now() - 1000 }),
    ],
    KEY,
  );

  await page.goto(`${devtools.url}/sessions?project=${projectOf(KEY)}`);
  await expect(page.getByTestId('sessions-count')).toHaveText('2 sessions');
  const badges = page.getByTestId('proxied-badge');
  await expect(badges).toHaveCount(1);
  await expect(
    page.locator(`[data-session="${sdkSession}"]`).getByTestId('proxied-badge'),
  ).toHaveCount(0);
  const proxiedRow = page.locator('[data-session]').filter({ has: badges });
  const proxiedId = await proxiedRow.getAttribute('data-session');
  expect(proxiedId).toMatch(/^s_[0-9a-f]{12}$/);

  await proxiedRow.click();
  await expect(page).toHaveURL(new RegExp(`/session\\?.*id=${proxiedId}`));
  await expect(page.getByTestId('proxied-badge')).toHaveText('proxied');
  await expect(page.getByTestId('proxied-note')).toContainText('cannot tell a handler that threw');
  await expect(page.getByTestId('session-calls').locator('tbody tr')).toHaveCount(2);
  await shootBoth(page, 'proxied-session');

  await page.goto(`${devtools.url}/session?id=${sdkSession}&project=${projectOf(KEY)}`);
  await expect(page.getByTestId('session-facts')).toBeVisible();
  await expect(page.getByTestId('proxied-note')).toHaveCount(0);
  console.check();
});

test('Setup builds client config that wraps the typed server command with the proxy', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  await page.goto(`${devtools.url}/setup`);
  const panel = page.getByTestId('proxy-setup');
  await expect(panel).toBeVisible();
  await page.getByLabel('Server command').fill('npx -y @acme/mcp-server --verbose');
  const snippet = page.getByTestId('proxy-snippet');
  const desktop = JSON.parse(await snippet.innerText()) as {
    mcpServers: Record<string, { command: string; args: string[] }>;
  };
  // The built CLI by full paths: the client starts it from its own folder (issue 43).
  expect(desktop.mcpServers['mcp-server']).toEqual({
    command: CLI_WORDS[0],
    args: [
      CLI_WORDS[1],
      'proxy',
      '--url',
      devtools.url,
      '--',
      'npx',
      '-y',
      '@acme/mcp-server',
      '--verbose',
    ],
  });
  await page.getByRole('tab', { name: 'VS Code' }).click();
  expect(JSON.parse(await snippet.innerText())).toMatchObject({
    servers: { 'mcp-server': { type: 'stdio' } },
  });
  await page.getByRole('tab', { name: 'Claude Code' }).click();
  await expect(snippet).toHaveText(
    `claude mcp add mcp-server -- ${CLI_WORDS.join(' ')} proxy --url ${devtools.url} -- npx -y @acme/mcp-server --verbose`,
  );
  console.check();
});
