/**
 * Accessibility of the tables this branch designed: axe on the sessions list, a session with a
 * selected call, the calls list with its details panel, and the playground's compare mode, in
 * both colour schemes. Only `main` is checked, and not its colour contrast: the shell and the
 * theme's colours belong to the shell's own axe spec. Everything else here must be clean.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './server.js';
import { projectOf } from './ui-helpers.js';

const KEY = 'mp_live_tables_a11y';
const PROJECT = projectOf(KEY);

async function clean(page: Page, what: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const result = await new AxeBuilder({ page })
      .include('main')
      .disableRules(['color-contrast'])
      .analyze();
    const found = result.violations.map(
      (v) =>
        `${what} (${colorScheme}): ${v.id} — ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
    expect(found, found.join('\n')).toEqual([]);
  }
}

test('sessions, session, calls and compare pass axe', async ({ page, devtools }) => {
  expect((await devtools.ingestCapture('ts-sdk-exercise', KEY)).status).toBe(202);
  await page.goto(`${devtools.url}/sessions?project=${PROJECT}`);
  await expect(page.locator('[data-session]').first()).toBeVisible();
  await clean(page, 'sessions');

  await page.goto(`${devtools.url}/session?project=${PROJECT}&id=s_e4cc6a39269d`);
  await page.getByTestId('session-calls').locator('tbody tr').first().click();
  await expect(page.getByTestId('call-reason')).toBeVisible();
  await clean(page, 'session');

  await page.goto(`${devtools.url}/calls?project=${PROJECT}`);
  await page.getByTestId('calls').locator('tbody tr').first().click();
  await expect(page.getByTestId('call-reason')).toBeVisible();
  await clean(page, 'calls');

  await page.goto(`${devtools.url}/playground?mode=compare&a=f079ac726bf6&b=c9af52d21b70`);
  await page.getByTestId('cmp-input-A').fill('{"a":1}');
  await page.getByTestId('cmp-input-B').fill('{"a":2}');
  await expect(page.getByTestId('cmp-paths')).toBeVisible();
  await clean(page, 'compare');
});
