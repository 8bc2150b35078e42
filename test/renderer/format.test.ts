/**
 * lib/format.ts is the one place for units and precision in the dashboard: tokens from UTF-16
 * units, one cost precision, and the latency buckets the p95 card and chart share.
 */
import { describe, expect, it } from 'vitest';
import {
  fmtTok,
  fmtTokens,
  fmtUsd,
  GLOSSARY,
  LATENCY_BUCKETS,
  latencyBucketOf,
  TOKENS_RULE,
  USD_DECIMALS,
} from '../../renderer/src/lib/format.js';

describe('tokens', () => {
  it('are UTF-16 units ÷ 4, with the unit named when asked', () => {
    expect(fmtTok(142)).toBe('36');
    expect(fmtTokens(14_072)).toBe('3.5k tok');
    expect(fmtTokens(null)).toBe('—');
    expect(TOKENS_RULE).toMatch(/UTF-16 code units ÷ 4/);
    expect(GLOSSARY.tok).toBe(TOKENS_RULE);
  });
});

describe('costs', () => {
  it('read with one precision whatever their size', () => {
    expect(USD_DECIMALS).toBe(4);
    expect(fmtUsd(0.00373)).toBe('$0.0037');
    expect(fmtUsd(0.0373)).toBe('$0.0373');
    expect(fmtUsd(1.3406)).toBe('$1.3406');
    expect(fmtUsd(1234.5)).toBe('$1,234.5000');
    for (const usd of [0.00012, 0.019, 0.5, 7, 42.1])
      expect(fmtUsd(usd)).toMatch(/^\$[\d,]+\.\d{4}$/);
  });

  it('say zero and below-precision plainly', () => {
    expect(fmtUsd(0)).toBe('$0');
    expect(fmtUsd(0.00001)).toBe('<$0.0001');
    expect(fmtUsd(null)).toBe('—');
    expect(fmtUsd(Number.NaN)).toBe('—');
  });
});

describe('latency buckets', () => {
  it('name the range a p95 label stands for, so the figure and its bucket agree', () => {
    expect(latencyBucketOf('100ms')?.range).toBe('< 100 ms');
    expect(latencyBucketOf('500ms')?.range).toBe('100–500 ms');
    expect(latencyBucketOf('2s')?.range).toBe('0.5–2 s');
    expect(latencyBucketOf('>2s')?.range).toBe('≥ 2 s');
    expect(latencyBucketOf(null)).toBeUndefined();
    expect(LATENCY_BUCKETS.map((b) => b.key)).toEqual([
      'under_100',
      'under_500',
      'under_2000',
      'over_2000',
    ]);
  });
});
