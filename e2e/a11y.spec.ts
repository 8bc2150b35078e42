/**
 * Accessibility: axe (WCAG 2 A and AA rules, colour contrast included) on every page, in the
 * light and the dark theme, with realistic data on screen, plus 3:1 contrast for the graphics
 * axe does not check (outcome dots and bars, chart bars, sparklines). Also the skip link and
 * the sidebar that collapses on narrow windows.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { lowContrastGraphics } from './graphics-contrast.js';
import { seedTour } from './page-tour.js';
import { expect, test } from './server.js';

test('every page passes axe (WCAG 2 AA) and 3:1 for graphics in both themes', async ({
  page,
  devtools,
}) => {
  test.setTimeout(240_000);
  const pages = await seedTour(page, devtools, 'mp_live_axe_check');
  const found: string[] = [];
  for (const [name, path] of pages) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.goto(devtools.url + path);
      await expect(page.locator('main h1').first()).toBeVisible();
      await page.waitForTimeout(500);
      const result = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      for (const v of result.violations)
        found.push(
          `${name} ${colorScheme}: ${v.id} (${v.impact}) ×${v.nodes.length}: ` +
            v.nodes
              .slice(0, 3)
              .map((n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] ?? ''}`)
              .join(' | '),
        );
      for (const g of await lowContrastGraphics(page))
        found.push(`${name} ${colorScheme}: graphics contrast ${g}`);
    }
  }
  expect(found, found.join('\n')).toEqual([]);
});

test('a skip link leads past the sidebar, and the sidebar folds to icons under 1100 px', async ({
  page,
  devtools,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${devtools.url}/setup`);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();

  const sidebar = page.locator('nav.sidebar');
  expect((await sidebar.boundingBox())!.width).toBeGreaterThan(150);
  await page.setViewportSize({ width: 1024, height: 800 });
  expect((await sidebar.boundingBox())!.width).toBeLessThan(64);
  // Folded, every item keeps its name for screen readers and its title for the pointer.
  await expect(sidebar.getByRole('link', { name: 'Tools' })).toHaveAttribute('title', /Tools/);
  await sidebar.getByRole('link', { name: 'Tools' }).click();
  await expect(page.locator('main h1')).toHaveText('Tools');
});
