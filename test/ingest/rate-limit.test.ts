/**
 * The per-key rate limiter forgets idle keys and bounds how many it remembers (issue 19: the
 * map never forgot, so 60,000 one-shot keys cost ~90 MB for the life of the server). The
 * limiter's clock is its constructor argument, so minutes pass in microseconds.
 */
import { expect, it } from 'vitest';
import { RateLimiter } from '../../src/ingest/rate-limit.js';

it('still limits each key to its window', () => {
  let ms = 1_000_000;
  const limiter = new RateLimiter(100, () => ms);
  expect(limiter.tryTake('k', 60)).toBe(true);
  expect(limiter.tryTake('k', 41)).toBe(false);
  expect(limiter.tryTake('k', 40)).toBe(true);
  ms += 30_000;
  expect(limiter.tryTake('k', 1)).toBe(false);
  ms += 30_001;
  expect(limiter.tryTake('k', 100)).toBe(true);
});

it('forgets keys idle for a whole window, and keeps the ones in use', () => {
  let ms = 5_000_000;
  const limiter = new RateLimiter(10_000, () => ms, 100_000);
  for (let i = 0; i < 60_000; i++) limiter.tryTake(`mp_live_oneshot_${i}`, 1);
  expect(limiter.trackedKeys).toBe(60_000);
  // An SDK that keeps sending is remembered, with its count.
  for (let s = 0; s < 61; s++) {
    ms += 1000;
    expect(limiter.tryTake('mp_live_steady', 100)).toBe(true);
  }
  expect(limiter.trackedKeys).toBe(1);
  // 61 seconds × 100 in a sliding minute: the last 60 seconds' 6,000 are still counted.
  expect(limiter.tryTake('mp_live_steady', 4_001)).toBe(false);
  expect(limiter.tryTake('mp_live_steady', 4_000)).toBe(true);
});

it('remembers at most maxKeys keys within one window, forgetting the least recently used', () => {
  const ms = 9_000_000;
  const limiter = new RateLimiter(10, () => ms, 1_000);
  expect(limiter.tryTake('mp_live_busy', 10)).toBe(true);
  for (let i = 0; i < 60_000; i++) {
    limiter.tryTake(`mp_live_flood_${i}`, 1);
    // The busy key stays in use, so it is never the one forgotten.
    if (i % 500 === 0) expect(limiter.tryTake('mp_live_busy', 1)).toBe(false);
  }
  expect(limiter.trackedKeys).toBe(1_000);
});
