/**
 * Setup proves itself: on a fresh server it says "waiting" and what to check; a payload posted
 * to /v1/ingest turns it to "connected: <client>, <session>, N calls" without a reload. A session
 * whose last batch looks lost is flagged on Setup and on the session's page.
 */
import { expect, startDevtools, test } from './server.js';
import { call, guardConsole, sessionId, shootBoth, startup } from './ui-helpers.js';

test('Setup waits for the first payload, then says connected: client, session, N calls', async ({
  page,
}) => {
  const { server, stop } = await startDevtools();
  try {
    const console = guardConsole(page);
    await page.goto(`${server.url}/setup`);
    const state = page.getByTestId('connection-state');
    await expect(state).toHaveText(/waiting for the first payload/);
    await expect(page.locator('.connection .checks li')).toHaveCount(5);
    await expect(page.locator('.connection .checks')).toContainText('MCPULSE_ENDPOINT');
    // Each tab sets the endpoint through the SDK's own option, with this server's URL.
    await page.getByRole('tab', { name: 'Go' }).click();
    await expect(page.getByRole('tabpanel')).toContainText(`Endpoint: "${server.url}"`);
    await expect(page.getByRole('tabpanel')).toContainText('defer mcpulse.FlushAll()');

    const session = sessionId(0xc0ffee);
    const now = Date.now();
    const res = await server.ingest({
      batch: [
        startup(session, [['search', 120]], 'claude-code'),
        call({ session, tool: 'search', at: now - 200, client: 'claude-code' }),
        call({ session, tool: 'search', at: now - 100, client: 'claude-code' }),
      ],
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-mcpulse-rejected')).toBe('0');
    // The live stream turns it, no reload.
    await expect(state).toHaveText(`connected: claude-code, ${session}, 2 calls`);
    await shootBoth(page, 'setup-connected');
    console.check();
  } finally {
    await stop();
  }
});
