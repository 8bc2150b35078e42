/**
 * Setup proves itself: on a fresh server it says "waiting" and what to check; a payload posted
 * to /v1/ingest turns it to "connected: <client>, <session>, N calls" without a reload. A session
 * whose last batch looks lost is flagged on Setup and on the session's page.
 */
import Database from 'better-sqlite3';
import { expect, openLink, startDevtools, test } from './server.js';
import { call, guardConsole, sessionId, shootBoth, startup } from './ui-helpers.js';

test('Setup waits for the first payload, then says connected: client, session, N calls', async ({
  page,
}) => {
  const { server, stop } = await startDevtools();
  try {
    // As a user would: the printed link first, then the pages.
    await openLink(page, server);
    const console = guardConsole(page);
    await page.goto(`${server.url}/setup`);
    const state = page.getByTestId('connection-state');
    await expect(state).toHaveText(/waiting for the first payload/);
    await expect(page.locator('.connection .checks li')).toHaveCount(6);
    await expect(page.locator('.connection .checks')).toContainText('MCPULSE_ENDPOINT');
    // Each tab sets the endpoint through the SDK's own option, with this server's URL.
    await page.getByRole('tab', { name: 'Go' }).click();
    await expect(page.getByRole('tabpanel', { name: 'Go' })).toContainText(
      `Endpoint: "${server.url}"`,
    );
    await expect(page.getByRole('tabpanel', { name: 'Go' })).toContainText(
      'defer mcpulse.FlushAll()',
    );

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
    // Named by what it is (client → first tool · start time); the raw id as secondary text.
    await expect(state).toHaveText(/^connected: claude-code → search · \d\d:\d\d:\d\d, 2 calls$/);
    await expect(page.getByTestId('connection-session')).toContainText(session);
    await shootBoth(page, 'setup-connected');
    console.check();
  } finally {
    await stop();
  }
});

test('a session whose last batch looks lost is flagged on Setup and on its page', async ({
  page,
}) => {
  const { server, stop } = await startDevtools();
  try {
    const full = sessionId(0xf011);
    const toolsOnly = sessionId(0x70015);
    const now = Date.now();
    // A Go server's story: the tool list on one flush, then a full 30-payload batch, then exit.
    const post = (batch: unknown[]) =>
      fetch(`${server.url}/v1/ingest`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: 'Bearer mp_live_e2e',
          'user-agent': 'mcpulse-go',
        },
        body: JSON.stringify({ batch }),
      });
    expect((await post([startup(toolsOnly, [['search', 120]])])).status).toBe(202);
    const calls = Array.from({ length: 30 }, (_, i) =>
      call({ session: full, tool: 'search', at: now - 5000 + i * 10 }),
    );
    expect((await post(calls)).status).toBe(202);
    // Ten seconds of quiet, without waiting for them: the rows are moved into the past.
    const db = new Database(server.dbPath);
    try {
      db.pragma('busy_timeout = 10000');
      for (const table of ['calls', 'startups', 'batches'])
        db.prepare(`UPDATE ${table} SET received_ms = received_ms - 60000`).run();
    } finally {
      db.close();
    }

    // As a user would: the printed link, then the pages — opened after the rows were moved,
    // so no live page reads while this test writes the file behind the server's back (a read
    // that settles derived facts on the writer then meets another process's commit: issue 39).
    await openLink(page, server);
    const console = guardConsole(page);
    await page.goto(`${server.url}/setup`);
    const lost = page.getByTestId('lost-batches');
    await expect(lost).toContainText(toolsOnly);
    await expect(lost).toContainText(full);
    await expect(lost).toContainText('FlushAll');

    await page.goto(`${server.url}/session?id=${full}`);
    await expect(page.getByTestId('lost-batch')).toContainText('Last batch probably lost');
    await expect(page.getByTestId('lost-batch')).toContainText('full batch (30 payloads');
    console.check();
  } finally {
    await stop();
  }
});
