import { expect, test } from './server.js';

test('a call ingested while the dashboard is open appears without a reload', async ({ page, devtools }) => {
  await page.goto(devtools.url);
  await expect(page.getByRole('heading', { name: 'MCPulse Devtools' })).toBeVisible();
});
