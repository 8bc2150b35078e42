/**
 * How many calls the file holds, known without a `count(*)` per question: retention's size cap
 * is checked between every two apply slices during a flood (./keep-up.ts), and one count over a
 * big table takes tens of milliseconds to seconds.
 *
 * Counted once, in slices of ids (a step each, so no count holds the loop), then kept: calls
 * stored since are the rows past the highest id seen — ids only grow, and retention deletes the
 * oldest, so the newest row is never deleted while the cap (≥ 1,000) holds calls — and calls
 * deleted are told by the steps that deleted them, after their transaction committed.
 */
import type Database from 'better-sqlite3';

/** The file's call count; see {@link createCallCount}. */
export interface CallCount {
  /** The exact count now, or null until counted ({@link countStep}). */
  value(): number | null;
  /** An upper bound without counting: max(id) − min(id) + 1 (0 when there are none). */
  bound(): number;
  /** Counts the next slice of ids; true once the count is known. */
  countStep(): boolean;
  /** Calls a committed step deleted. */
  deleted(calls: number): void;
  /** Forgets the count (a clear, a new pass's recount): counted again from the start. */
  reset(): void;
}

/** Counts lost on purpose by {@link forgetCallCount}, per connection (a clear deletes all). */
const counts = new WeakMap<Database.Database, Set<CallCount>>();

/** Every kept count of `db` is counted again (clear-all deleted calls behind their back). */
export function forgetCallCount(db: Database.Database): void {
  for (const count of counts.get(db) ?? []) count.reset();
}

/** Builds the count of `db`'s calls; `slice` ids are counted per {@link CallCount.countStep}. */
export function createCallCount(db: Database.Database, slice: number): CallCount {
  // Two subqueries, not `min(id), max(id)` in one: SQLite answers a lone min() or max() from
  // the end of the rowid b-tree, but both together by scanning the whole table — once per
  // apply slice, that cost a flood more than half its rate on a file of 500,000 calls.
  const bounds = db.prepare<[], { lo: number | null; hi: number | null }>(
    'SELECT (SELECT min(id) FROM calls) AS lo, (SELECT max(id) FROM calls) AS hi',
  );
  const between = db.prepare<[number, number], { n: number }>(
    'SELECT count(*) AS n FROM calls WHERE id BETWEEN ? AND ?',
  );
  const after = db.prepare<[number], { n: number; hi: number | null }>(
    'SELECT count(*) AS n, max(id) AS hi FROM calls WHERE id > ?',
  );
  /** Known: the count up to `hi`. Counting: how far (`from`), up to the `hi` seen at the start. */
  let known: { n: number; hi: number } | null = null;
  let counting: { from: number; hi: number; n: number } | null = null;

  /** Adds the calls stored since the last look (a range scan over the new rows only). */
  function sync(k: { n: number; hi: number }): number {
    const fresh = after.get(k.hi)!;
    if (fresh.n > 0) {
      k.n += fresh.n;
      k.hi = fresh.hi!;
    }
    return k.n;
  }

  const count: CallCount = {
    value: () => (known ? sync(known) : null),
    bound() {
      const { lo, hi } = bounds.get()!;
      return lo === null || hi === null ? 0 : hi - lo + 1;
    },
    countStep() {
      if (known) return true;
      if (!counting) {
        const { lo, hi } = bounds.get()!;
        if (lo === null || hi === null) {
          known = { n: 0, hi: 0 };
          return true;
        }
        counting = { from: lo, hi, n: 0 };
      }
      const to = Math.min(counting.hi, counting.from + slice - 1);
      counting.n += between.get(counting.from, to)!.n;
      counting.from = to + 1;
      if (counting.from <= counting.hi) return false;
      known = { n: counting.n, hi: counting.hi };
      counting = null;
      return true;
    },
    deleted(calls) {
      // A deletion during a count may have taken rows already counted: count again.
      if (counting) counting = null;
      else if (known) {
        known.n -= calls;
        // All gone (by age): the next row may take a low id again, below the one remembered.
        if (known.n <= 0) known = null;
      }
    },
    reset() {
      known = null;
      counting = null;
    },
  };
  let set = counts.get(db);
  if (!set) counts.set(db, (set = new Set()));
  set.add(count);
  return count;
}
