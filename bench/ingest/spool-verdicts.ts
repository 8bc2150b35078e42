/** Spooling examined bodies in-process, as the server's group commit does. */
import type { examine } from '../../src/ingest/examine.js';
import { createValidatedRecords, spoolEntryOf } from '../../src/ingest/index.js';
import type { Store } from '../../src/store/index.js';

/**
 * Appends the accepted `verdicts` to the spool in groups of 4 per transaction and keeps
 * their validated records for applying; throws on a refused bench body.
 */
export function spoolVerdicts(store: Store, verdicts: readonly ReturnType<typeof examine>[]) {
  const validated = createValidatedRecords();
  for (let i = 0; i < verdicts.length; i += 4) {
    const group = verdicts.slice(i, i + 4).map((v) => {
      if (v.kind !== 'accepted') throw new Error(`bench body refused: ${v.answer.body?.error}`);
      return v;
    });
    const ids = store.spool.add(group.map(spoolEntryOf));
    group.forEach((v, j) => validated.keep(ids[j]!, v.body, v.record, v.items));
  }
  return validated;
}
