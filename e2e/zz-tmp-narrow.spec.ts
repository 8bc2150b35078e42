import { expect, test } from './server.js';
import { call, ingestAll, projectOf, sessionId, startup } from './ui-helpers.js';
import { seedTour } from './page-tour.js';
test('narrow diag', async ({ page, devtools }) => {
  test.setTimeout(300_000);
  const pages = await seedTour(page, devtools, 'mp_live_diag');
  const widths = (process.env.W ?? '360').split(',').map(Number);
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    for (const [name, path] of pages) {
      await page.goto(devtools.url + path);
      await expect(page.locator('main h1').first()).toBeVisible();
      await page.waitForTimeout(400);
      const over = await page.evaluate((vw0) => {
        const vw = document.querySelector('main.content')!.getBoundingClientRect().right - 14;
        const out: string[] = [];
        const c = document.querySelector('main.content')!;
        const cr = c.getBoundingClientRect();
        let best: [number, string][] = [];
        for (const el of Array.from(c.querySelectorAll('*'))) {
          const r = el.getBoundingClientRect();
          if (r.right > cr.right - 14) best.push([Math.round(r.right), `${el.tagName}.${String(el.className)} w=${Math.round(r.width)}`]);
        }
        best = best.filter(([, n]) => !n.startsWith('SPAN.sr-only'));
        out.push(...best.slice(0, 10).map(([r, n]) => `C ${r} ${n}`));
        for (const el of Array.from(document.querySelectorAll('body *'))) {
          const r = el.getBoundingClientRect();
          if (r.right > vw + 1 && r.width > 0) {
            const cs = getComputedStyle(el);
            if (cs.position === 'absolute' || cs.position === 'fixed') { out.push(`POS ${cs.position} ${el.tagName}.${el.className} right=${Math.round(r.right)}`); }
            const pr = el.parentElement?.getBoundingClientRect();
            if (getComputedStyle(el).position === 'fixed') { out.push('FIXED ' + el.className + ' ' + Math.round(r.right)); continue; }
            let inScroller = false;
            for (let p = el.parentElement; p && !p.classList.contains('main'); p = p.parentElement) {
              const o = getComputedStyle(p).overflowX;
              if ((o === 'auto' || o === 'scroll') ) { inScroller = true; break; }
            }
            if (!inScroller && pr && pr.right <= vw - 10) out.push(`${el.tagName.toLowerCase()}.${(el.className || '').toString().split(' ').join('.')} right=${Math.round(r.right)} w=${Math.round(r.width)}`);
          }
        }
        return out.slice(0, 8);
      }, width);
      const m = await page.evaluate(() => [document.documentElement.scrollWidth, document.querySelector('.main')!.scrollWidth, document.querySelector('.main')!.clientWidth, document.querySelector('main.content')!.scrollWidth, document.querySelector('main.content')!.clientWidth]);
      console.log(width, name, m.join('/'), '\n   ' + over.join('\n   '));
      if (process.env.SHOT) await page.screenshot({ path: `test-results/diag-${name}-${width}.png` });
    }
  }
});
