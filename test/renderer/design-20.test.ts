/**
 * The pure helpers of issue 20's design review: round axis ticks, durations under a
 * millisecond, byte sizes, and the playground's severity by how many languages a diagnostic
 * splits.
 */
import { describe, expect, it } from 'vitest';
import { niceStep, niceTicks } from '../../renderer/src/lib/nice-scale.js';
import { fmtBytes, fmtMs } from '../../renderer/src/lib/format.js';
import {
  mergeEffects,
  rankDiagnostics,
  shownSeverity,
} from '../../renderer/src/pages/playground/group-outcomes.js';
import type { Diagnostic } from '../../src/canonical/index.js';

describe('round ticks', () => {
  it('steps of 1, 2 or 5 × 10ⁿ, ending on a whole step at or above the maximum', () => {
    expect(niceTicks(340)).toEqual([0, 100, 200, 300, 400]);
    expect(niceTicks(60)).toEqual([0, 20, 40, 60]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceStep(85)).toBe(100);
    expect(niceStep(0.3)).toBe(1);
  });
});

describe('units', () => {
  it('durations under a millisecond say so; sizes read KB and MB', () => {
    expect(fmtMs(0)).toBe('< 1 ms');
    expect(fmtMs(0.4)).toBe('0.4 ms');
    expect(fmtMs(2)).toBe('2 ms');
    expect(fmtMs(1500)).toBe('1.50 s');
    expect(fmtBytes(512)).toBe('512 B');
    expect(fmtBytes(1024)).toBe('1.0 KB');
    expect(fmtBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});

describe('playground diagnostics', () => {
  const d = (over: Partial<Diagnostic>): Diagnostic => ({
    code: 'number-form',
    severity: 'info',
    message: '',
    path: '',
    offset: 0,
    line: 1,
    column: 1,
    affects: [],
    ...over,
  });
  it('a diagnostic that splits 3 or more languages is at least a warning, and ranks first', () => {
    const wide = d({
      affects: ['python', 'go', 'java', 'ruby', 'php'].map((sdk) => ({
        sdk: sdk as Diagnostic['affects'][number]['sdk'],
        effect: 'writes 1e+21',
      })),
    });
    const unsafe = d({ code: 'unsafe-integer', severity: 'warning', affects: [] });
    const note = d({ code: 'duplicate-key', affects: [] });
    expect(shownSeverity(wide)).toBe('warning');
    expect(shownSeverity(note)).toBe('info');
    expect(rankDiagnostics([note, unsafe, wide]).map((x) => x.code)).toEqual([
      'number-form',
      'unsafe-integer',
      'duplicate-key',
    ]);
    // Five languages with one effect: one line.
    expect(mergeEffects(wide)).toEqual([
      { sdks: ['python', 'go', 'java', 'ruby', 'php'], effect: 'writes 1e+21' },
    ]);
  });
});
