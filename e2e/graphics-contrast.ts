/**
 * WCAG 1.4.11 (non-text contrast) for the dashboard's graphics, which axe does not check:
 * every outcome dot, outcome-bar segment, chart bar and sparkline must read at 3:1 or better
 * against the surface behind it.
 */
import type { Page } from '@playwright/test';

/** The graphics that carry meaning by colour. */
const GRAPHICS = [
  '.dot',
  '.obar-seg',
  '.recharts-bar-rectangle path',
  '.recharts-bar-rectangle rect',
  '.spark-line',
].join(', ');

/** `selector colour on background = ratio` for each graphic under 3:1 (at most 20). */
export async function lowContrastGraphics(page: Page): Promise<string[]> {
  return page.evaluate((selector) => {
    const parse = (c: string): [number, number, number, number] | null => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return null;
      const p = m[1]!
        .split(/[ ,/]+/)
        .filter(Boolean)
        .map(Number);
      return [p[0]!, p[1]!, p[2]!, p[3] ?? 1];
    };
    const lum = ([r, g, b]: number[]): number => {
      const f = (v: number): number => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
    };
    const ratio = (a: number[], b: number[]): number => {
      const x = lum(a);
      const y = lum(b);
      return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
    };
    const backdrop = (el: Element): number[] => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const c = parse(getComputedStyle(p).backgroundColor);
        if (c && c[3] > 0.5) return c;
      }
      return [255, 255, 255, 1];
    };
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll(selector))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const cs = getComputedStyle(el);
      const svg = el instanceof SVGElement;
      const paint = svg ? (cs.fill !== 'none' ? cs.fill : cs.stroke) : cs.backgroundColor;
      const c = parse(paint);
      if (!c || c[3] < 0.5) continue;
      const bg = backdrop(el);
      const k = ratio(c, bg);
      if (k < 3)
        out.push(
          `${el.tagName.toLowerCase()}.${String(el.getAttribute('class') ?? '').replace(/\s+/g, '.')} ${paint} on rgb(${bg.slice(0, 3).join(', ')}) = ${k.toFixed(2)}:1`,
        );
    }
    return [...new Set(out)].slice(0, 20);
  }, GRAPHICS);
}
