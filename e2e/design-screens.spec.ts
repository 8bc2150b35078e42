/**
 * The design review's picture set: every page, light and dark, at 1440, 1024 and 390 px wide,
 * with the demo's data plus the three SDK captures. Written to docs/design/<DESIGN_SHOTS>/ when
 * that variable is set (`issue-20/before` / `issue-20/after`), else to test-results/design/ (an
 * artifact only).
 */
import { mkdirSync } from 'node:fs';
import { seedTour } from './page-tour.js';
import { expect, test } from './server.js';

const OUT = process.env.DESIGN_SHOTS
  ? `docs/design/${process.env.DESIGN_SHOTS}`
  : 'test-results/design';

test('the design review picture set', async ({ page, devtools }) => {
  test.setTimeout(300_000);
  const pages = await seedTour(page, devtools, 'mp_live_design_shots');
  mkdirSync(OUT, { recursive: true });
  for (const width of [1440, 1024, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [name, path] of pages) {
      await page.goto(devtools.url + path);
      await expect(page.locator('main h1').first()).toBeVisible();
      await page.waitForTimeout(700);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await page.waitForTimeout(200);
        await page.screenshot({ path: `${OUT}/${name}-${width}-${colorScheme}.png` });
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
  }
});
