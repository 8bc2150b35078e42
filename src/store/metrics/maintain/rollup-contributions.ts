/**
 * Writes changed facts and moves each changed call's contribution in every rollup from its
 * old key to its new one (new calls add their whole contribution), one upsert per key.
 */
import type { DerivedFacts } from '../../../metrics/links.js';
import { sizeBucket } from '../../../metrics/sizes.js';
import { RollupDeltas } from './rollup-deltas.js';
import { factsOf, sameFacts, type Row, type Touched } from './rows.js';
import type { MaintainStatements } from './statements.js';

/** Stores a new call's facts: an update of the row already inserted, or the row's insert. */
export type WriteNew = (row: Row, facts: DerivedFacts, sizeBucket: number) => void;

/**
 * Writes the facts of every touched call and applies their rollup deltas. New calls' facts
 * go through `writeNew` (by default an update of the row, inserted raw before).
 */
export function writeFactsAndRollups(
  st: MaintainStatements,
  touched: Map<number, Touched>,
  writeNew?: WriteNew,
): void {
  const { updateNew, updateFacts, upsertSession } = st;
  const deltas = new RollupDeltas();
  /** First start, last start and last end per session, for new calls. */
  const firstLast = new Map<number, [number, number, number]>();
  // Rows are written in id order, not in the session order they were touched in: new calls
  // then go to the end of the table one after another, where inserting them interleaved
  // split its last pages in the middle (callgrind: 3% of SQLite's instructions per applied
  // call, a quarter of those spent rebalancing pages; docs/benchmarks-history.md).
  const writes: Touched[] = [];
  for (const t of touched.values()) {
    const r = t.row;
    if (t.isNew) {
      writes.push(t);
      deltas.contribute(r, t.next, 1);
      deltas.contributeStatic(r, sizeBucket(r.response_bytes), 1);
      const sk = deltas.sessionIdOf(r);
      const fl = firstLast.get(sk);
      const end = r.started_ms + r.duration_ms;
      if (fl) {
        if (r.started_ms < fl[0]) fl[0] = r.started_ms;
        if (r.started_ms > fl[1]) fl[1] = r.started_ms;
        if (end > fl[2]) fl[2] = end;
      } else firstLast.set(sk, [r.started_ms, r.started_ms, end]);
    } else if (!sameFacts(factsOf(r), t.next)) {
      writes.push(t);
      deltas.contribute(r, factsOf(r), -1);
      deltas.contribute(r, t.next, 1);
    }
  }
  writes.sort((a, b) => a.row.id - b.row.id);
  for (const { row: r, isNew, next } of writes) {
    const size_bucket = sizeBucket(r.response_bytes);
    if (!isNew) updateFacts.run({ id: r.id, ...next });
    else if (writeNew) writeNew(r, next, size_bucket);
    else updateNew.run({ id: r.id, ...next, size_bucket });
  }
  for (const [table, d] of deltas.tables()) {
    const upsert = st.upsertRollup.get(table)!;
    for (const { key, v } of d.entries()) upsert.run(...key, ...v);
  }
  const none = [Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
  for (const { key, v } of deltas.sessions.entries()) {
    // A facts-only change leaves first/last alone: min/max with the extremes never moves them.
    const [p, session, client] = key as [number, string, string];
    const fl = firstLast.get(deltas.sessionKeyId(p, session, client)) ?? none;
    upsertSession.run(...key, ...fl, v[0], ...v.slice(1, 6), ...v.slice(9, 17));
  }
}
