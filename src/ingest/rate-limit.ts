/**
 * The hosted API's per-key limit: 10,000 payloads a minute, whole batch refused with 429.
 * A sliding window of per-second buckets keeps this O(60) in memory per key.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { second: number; counts: number[] }>();

  constructor(
    readonly perMinute = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts `n` payloads for `key` if they fit in the window; returns false (counting nothing) if not. */
  tryTake(key: string, n: number): boolean {
    const second = Math.floor(this.now() / 1000);
    let w = this.windows.get(key);
    if (!w) {
      w = { second, counts: new Array<number>(60).fill(0) };
      this.windows.set(key, w);
    }
    // Clear the buckets that fell out of the window since the last call.
    for (let s = w.second + 1; s <= second && s <= w.second + 60; s++) w.counts[s % 60] = 0;
    w.second = Math.max(w.second, second);
    const used = w.counts.reduce((a, b) => a + b, 0);
    if (used + n > this.perMinute) return false;
    w.counts[second % 60] = (w.counts[second % 60] ?? 0) + n;
    return true;
  }
}
