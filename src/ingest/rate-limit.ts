/**
 * The hosted API's per-key limit: 10,000 payloads a minute, whole batch refused with 429.
 * A sliding window of per-second buckets keeps this O(60) in memory per key.
 *
 * What a flood of unique keys costs is bounded (issue 19: 60,000 one-shot keys grew the map,
 * never emptied, by ~90 MB of RSS). The map is kept in least-recently-used order — a key
 * touched moves to the end — so keys idle for a whole window (nothing left to count) sit at
 * the front and are forgotten as time passes, a few at a time; and past {@link maxKeys} keys
 * seen within one window, the least recently used is forgotten early. Forgetting a key only
 * means its window starts afresh, as if new: under a flood of more unique keys a minute than
 * the bound, a key could be let through up to one window's worth more — never refused wrongly.
 */

interface KeyWindow {
  /** The last second this key was counted in. */
  second: number;
  counts: Uint32Array;
}

const WINDOW_SECONDS = 60;

export class RateLimiter {
  private readonly windows = new Map<string, KeyWindow>();
  private sweptSecond = -Infinity;

  constructor(
    readonly perMinute = 10_000,
    private readonly now: () => number = Date.now,
    /** Keys remembered at most (~300 bytes each); the default holds 10,000 active SDKs. */
    readonly maxKeys = 10_000,
  ) {}

  /** Keys currently remembered (for tests and the status of a flood). */
  get trackedKeys(): number {
    return this.windows.size;
  }

  /** Counts `n` payloads for `key` if they fit in the window; returns false (counting nothing) if not. */
  tryTake(key: string, n: number): boolean {
    const second = Math.floor(this.now() / 1000);
    this.forgetIdle(second);
    let w = this.windows.get(key);
    if (w) this.windows.delete(key);
    else {
      w = { second, counts: new Uint32Array(WINDOW_SECONDS) };
      if (this.windows.size >= this.maxKeys) {
        const oldest = this.windows.keys().next().value as string;
        this.windows.delete(oldest);
      }
    }
    // Re-inserted last: the map stays in order of last use.
    this.windows.set(key, w);
    // Clear the buckets that fell out of the window since the last call.
    for (let s = w.second + 1; s <= second && s <= w.second + WINDOW_SECONDS; s++)
      w.counts[s % WINDOW_SECONDS] = 0;
    w.second = Math.max(w.second, second);
    let used = 0;
    for (const c of w.counts) used += c;
    if (used + n > this.perMinute) return false;
    w.counts[second % WINDOW_SECONDS]! += n;
    return true;
  }

  /** Forgets, from the front, every key not counted in the last full window (once a second). */
  private forgetIdle(second: number): void {
    if (second === this.sweptSecond) return;
    this.sweptSecond = second;
    for (const [key, w] of this.windows) {
      if (w.second > second - WINDOW_SECONDS) break;
      this.windows.delete(key);
    }
  }
}
