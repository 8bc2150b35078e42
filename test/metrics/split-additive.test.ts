import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitAdditive, type Span } from '../../src/metrics/time.js';

const MIN = 60_000;
const H = 60 * MIN;
const DAY = 24 * H;
const BASE = Date.UTC(2026, 10, 3);
/** Far enough out to stand for an open end. */
const FAR = 30 * DAY;

const lo = (s: Span) => s.from ?? BASE - FAR;
const hi = (s: Span) => s.to ?? BASE + FAR;

/**
 * Every elementary interval between the split's boundaries, with its signed count of reads:
 * the split is right when that count is 1 inside the range and 0 outside it.
 */
function coverage(range: Span) {
  const split = splitAdditive(range);
  const signed: [Span, number][] = [
    ...(split.days ? [[split.days, 1] as [Span, number]] : []),
    ...split.plus.map((s): [Span, number] => [s, 1]),
    ...split.minus.map((s): [Span, number] => [s, -1]),
    ...split.partial.map((s): [Span, number] => [s, 1]),
    ...split.minusRaw.map((s): [Span, number] => [s, -1]),
  ];
  const cuts = [
    ...new Set([lo(range), hi(range), ...signed.flatMap(([s]) => [lo(s), hi(s)])]),
  ].sort((a, b) => a - b);
  const out: { at: number; count: number; inside: boolean }[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const at = cuts[i]!;
    const count = signed.reduce((n, [s, sign]) => n + (lo(s) <= at && at < hi(s) ? sign : 0), 0);
    out.push({ at, count, inside: lo(range) <= at && at < hi(range) });
  }
  return { split, out };
}

const spanMs = (spans: Span[]) => spans.reduce((n, s) => n + hi(s) - lo(s), 0);

describe('splitAdditive', () => {
  it('adds up to the range exactly, with at most 30 raw minutes and 12 hourly reads per edge', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 0, max: 4 * DAY }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 4 * DAY }), { nil: undefined }),
        (a, b) => {
          const range: Span = {
            from: a === undefined ? undefined : BASE + a,
            to: b === undefined ? undefined : BASE + b,
          };
          const { split, out } = coverage(range);
          for (const c of out) expect(c.count, new Date(c.at).toISOString()).toBe(c.inside ? 1 : 0);
          // Hours are whole hours, days whole days.
          for (const s of [...split.plus, ...split.minus]) {
            expect(lo(s) % H).toBe(0);
            expect(hi(s) % H).toBe(0);
          }
          if (split.days?.from !== undefined) expect(split.days.from % DAY).toBe(0);
          if (split.days?.to !== undefined) expect(split.days.to % DAY).toBe(0);
          expect(spanMs([...split.partial, ...split.minusRaw])).toBeLessThanOrEqual(2 * 30 * MIN);
          expect(spanMs([...split.plus, ...split.minus])).toBeLessThanOrEqual(2 * 12 * H);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads "from 00:02 on day 1" as whole days minus two raw minutes', () => {
    expect(splitAdditive({ from: BASE + 2 * MIN, to: BASE + 3 * DAY })).toEqual({
      whole: { from: BASE, to: BASE + 3 * DAY },
      days: { from: BASE, to: BASE + 3 * DAY },
      plus: [],
      minus: [],
      partial: [],
      minusRaw: [{ from: BASE, to: BASE + 2 * MIN }],
    });
    // Six hours and ten minutes stay six hourly reads and ten raw minutes.
    expect(splitAdditive({ from: BASE + 17 * H + 50 * MIN, to: BASE + 2 * DAY })).toEqual({
      whole: { from: BASE + 18 * H, to: BASE + 2 * DAY },
      days: { from: BASE + DAY, to: BASE + 2 * DAY },
      plus: [{ from: BASE + 18 * H, to: BASE + DAY }],
      minus: [],
      partial: [{ from: BASE + 17 * H + 50 * MIN, to: BASE + 18 * H }],
      minusRaw: [],
    });
  });
});
