/**
 * Per-slice accumulators for rollup deltas, keyed by numbers rather than strings.
 *
 * Every stored call adds to about a dozen rollup rows, so building a string key for each
 * (`${project}|${day}|…|${tool}${client}`) meant a dozen fresh strings per call, each hashed
 * in full by the Map — a quarter of the CPU of applying a call (issue 19). Instead, texts get
 * dense ids once per slice (a Map lookup on a string V8 has already hashed, since the row's
 * own `tool_name` is looked up), tuples of ids get ids of their own, and a key is two numbers.
 */

/** Dense ids for the texts and tuples of one slice's keys. */
export class KeyIds {
  private readonly texts = new Map<string, number>();
  private readonly pairs = new Map<number, Map<number, number>>();
  private next = 0;

  /** The id of a text. */
  text(s: string): number {
    let id = this.texts.get(s);
    if (id === undefined) this.texts.set(s, (id = this.next++));
    return id;
  }

  /**
   * The id of the ordered pair `(a, b)` — injective, so pairs of pairs name longer tuples.
   * Only ids that play the same role are compared: `(project, tool)` and `(id, client)` may
   * share a number, but never inside one accumulator.
   */
  pair(a: number, b: number): number {
    let inner = this.pairs.get(a);
    if (!inner) this.pairs.set(a, (inner = new Map()));
    let id = inner.get(b);
    if (id === undefined) inner.set(b, (id = this.next++));
    return id;
  }
}

interface Entry {
  /** The rollup row's key columns, kept from the first add. */
  key: unknown[];
  /** The signed deltas of its value columns. */
  v: number[];
}

/** Signed deltas per key `(a, b)`, flushed as one upsert each. */
export class Deltas {
  private readonly map = new Map<number, Map<number, Entry>>();
  /** @param width how many summed columns each key has. */
  constructor(readonly width: number) {}

  /** The running values of `(a, b)`, created (zeros) with its columns `key()` on first use. */
  at(a: number, b: number, key: () => unknown[]): number[] {
    let inner = this.map.get(a);
    if (!inner) this.map.set(a, (inner = new Map()));
    let e = inner.get(b);
    if (!e) inner.set(b, (e = { key: key(), v: new Array<number>(this.width).fill(0) }));
    return e.v;
  }

  /** Every key whose deltas are not all zero (a call moved out and back in writes nothing). */
  *entries(): Iterable<Entry> {
    for (const inner of this.map.values())
      for (const e of inner.values()) if (e.v.some((x) => x !== 0)) yield e;
  }
}
