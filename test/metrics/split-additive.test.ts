import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitAdditive, splitByHours, type Span } from '../../src/metrics/time.js';

const H = 3_600_000;
const DAY = 24 * H;
const BASE = Date.UTC(2026, 10, 3);
/** The window every range lies in, hour by hour (open ends reach past it). */
const HOURS = Array.from({ length: 6 * 24 }, (_, i) => BASE - DAY + i * H);

const within = (h: number, s: Span) => (s.from ?? -Infinity) <= h && h + H <= (s.to ?? Infinity);

describe('splitAdditive', () => {
  it('adds up to every whole hour of the range exactly once, with at most 12 hourly reads per edge', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 0, max: 4 * DAY }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 4 * DAY }), { nil: undefined }),
        (a, b) => {
          const range: Span = {
            from: a === undefined ? undefined : BASE + a,
            to: b === undefined ? undefined : BASE + b,
          };
          const split = splitAdditive(range);
          expect(split.partial).toEqual(splitByHours(range).partial);
          let reads = 0;
          for (const h of HOURS) {
            const n =
              (split.days && within(h, split.days) ? 1 : 0) +
              split.plus.filter((s) => within(h, s)).length -
              split.minus.filter((s) => within(h, s)).length;
            const whole = within(h, range);
            expect(n, `hour ${new Date(h).toISOString()}`).toBe(whole ? 1 : 0);
            if (split.minus.some((s) => within(h, s))) {
              expect(split.days && within(h, split.days)).toBe(true);
            }
            reads += split.plus.filter((s) => within(h, s)).length;
            reads += split.minus.filter((s) => within(h, s)).length;
          }
          expect(reads).toBeLessThanOrEqual(2 * 12);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads a day covered from 01:00 as that day minus its first hour', () => {
    expect(splitAdditive({ from: BASE + H, to: BASE + 3 * DAY })).toEqual({
      whole: { from: BASE + H, to: BASE + 3 * DAY },
      days: { from: BASE, to: BASE + 3 * DAY },
      plus: [],
      minus: [{ from: BASE, to: BASE + H }],
      partial: [],
    });
    // Six hours stay six hourly reads.
    expect(splitAdditive({ from: BASE + 18 * H, to: BASE + 2 * DAY })).toEqual({
      whole: { from: BASE + 18 * H, to: BASE + 2 * DAY },
      days: { from: BASE + DAY, to: BASE + 2 * DAY },
      plus: [{ from: BASE + 18 * H, to: BASE + DAY }],
      minus: [],
      partial: [],
    });
  });
});
