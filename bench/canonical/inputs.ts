/**
 * The two argument objects the canonical benchmark hashes: one the size of a typical tool
 * call, one a 20 KB nested document. Deterministic, so runs compare.
 */

/** A realistic ~200-byte tool-call argument object, keys deliberately unsorted. */
export const SMALL_ARGS = {
  query: 'quarterly revenue by region',
  limit: 25,
  filters: { region: 'EMEA', active: true, tags: ['finance', 'q3'], min_amount: 1250.5 },
  sort: { field: 'created_at', direction: 'desc' },
  include_archived: false,
};

/** Park–Miller: tiny, seedable, and the same numbers on every machine. */
function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 48271) % 0x7fffffff;
    return state / 0x7fffffff;
  };
}

const WORDS = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'revenue',
  'région',
  'naïve',
  'path/to/file',
  'x<y',
  '🚀 launch',
  'status',
  'owner',
];

/** A ~20 KB nested object: records with nested metadata, arrays, floats and a little non-ASCII. */
export function largeArgs(): Record<string, unknown> {
  const random = prng(42);
  const word = () => WORDS[Math.floor(random() * WORDS.length)]!;
  const records = [];
  for (let i = 0; i < 68; i++) {
    records.push({
      id: `rec_${i.toString(36).padStart(6, '0')}`,
      title: `${word()} ${word()} ${word()}`,
      score: Math.round(random() * 1e6) / 1e3,
      weight: random(),
      count: Math.floor(random() * 10_000),
      enabled: random() > 0.5,
      tags: [word(), word(), word()],
      meta: {
        owner: word(),
        created: `2026-08-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z`,
        limits: { max: Math.floor(random() * 1000), min: 0, ratio: random() / 7 },
        notes: i % 5 === 0 ? 'line one\nline two\t"quoted"' : null,
      },
    });
  }
  return { dataset: 'bench', version: 3, records, options: { dry_run: false, batch: 500 } };
}
