/**
 * The wrong endpoint said out loud (issue 21): an SDK whose endpoint option already ends in
 * /v1/ingest posts its real batch to /v1/ingest/v1/ingest. The server answers 404 as the hosted
 * API would; the Ingest log shows the request with its path, user agent and the base URL to
 * give, and Setup shows the same refusal with its hint — live, without a reload.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, openLink, startDevtools, test } from './server.js';
import { guardConsole } from './ui-helpers.js';

const TS_BODY = readFileSync(
  join(import.meta.dirname, '..', 'fixtures', 'captures', 'ts-sdk-exercise.json'),
  'utf8',
);

test('a POST to /v1/ingest/v1/ingest is refused and shown with its hint on the Ingest log and on Setup', async ({
  page,
}) => {
  const { server, stop } = await startDevtools();
  try {
    // As a user would: the printed link first, then the pages.
    await openLink(page, server);
    const console = guardConsole(page);
    await page.goto(`${server.url}/setup`);
    await expect(page.getByTestId('connection-state')).toHaveText(/waiting for the first payload/);

    const res = await fetch(`${server.url}/v1/ingest/v1/ingest`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer mp_live_e2e',
        'content-type': 'application/json',
        'user-agent': 'node',
      },
      body: TS_BODY,
    });
    expect(res.status).toBe(404);
    const hint = `give the base URL ${server.url}`;

    // Setup: the refusal and what to change, on the waiting panel.
    const notice = page.getByTestId('setup-misdirected');
    await expect(notice).toContainText('POST /v1/ingest/v1/ingest');
    await expect(notice).toContainText('404');
    await expect(notice).toContainText('from node');
    await expect(page.getByTestId('setup-misdirected-hint')).toContainText(
      'your endpoint option ends in /v1/ingest',
    );
    await expect(page.getByTestId('setup-misdirected-hint')).toContainText(hint);

    // The Ingest log: the request, its path, its user agent and the hint.
    await page.goto(`${server.url}/ingest`);
    const row = page.getByTestId('misdirected-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('POST /v1/ingest/v1/ingest');
    await expect(row).toContainText('not found');
    await expect(row).toContainText(hint);
    await expect(row).toContainText('from node');
    await expect(page.getByTestId('ingest-summary')).toContainText('1 request refused');
    console.check();
  } finally {
    await stop();
  }
});
