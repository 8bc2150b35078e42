/**
 * A client that connected, listed the tools and left (the TypeScript SDK sends a startup on
 * every initialize) is a session: listed with "no tool calls", with its own page — and not
 * flagged as a lost batch.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, openLink, startDevtools, test } from './server.js';
import { guardConsole } from './ui-helpers.js';

const TS = JSON.parse(
  readFileSync(
    join(import.meta.dirname, '..', 'fixtures', 'captures', 'ts-sdk-exercise.json'),
    'utf8',
  ),
) as { batch: { type: string; session_id: string }[] };

test('a session with a startup and no calls is listed, named "no tool calls", and has its page', async ({
  page,
}) => {
  const { server, stop } = await startDevtools();
  try {
    // As a user would: the printed link first, then the pages.
    await openLink(page, server);
    const console = guardConsole(page);
    const startup = TS.batch.filter((p) => p.type === 'startup');
    const id = startup[0]!.session_id;
    expect((await server.ingest({ batch: startup })).status).toBe(202);

    await page.goto(`${server.url}/sessions`);
    const row = page.locator(`[data-session="${id}"]`);
    await expect(row).toContainText('mcpulse-exercise · no tool calls');
    await expect(row).toContainText(id);

    await page.goto(`${server.url}/session?id=${id}`);
    await expect(page.locator('h1.session-name')).toContainText('no tool calls');
    await expect(page.locator('h1.session-name')).toContainText(id);
    await expect(page.getByTestId('lost-batch')).toHaveCount(0);
    console.check();
  } finally {
    await stop();
  }
});
