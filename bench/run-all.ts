/**
 * `npm run bench`: builds dist/ once, then runs every bench/*.ts script (except this one) in
 * turn, each in its own process, and exits non-zero if any of them did. Scripts that need an
 * input only a person can choose (a seeded database of millions of calls) are listed as
 * skipped with the command that runs them, not run and counted as failures.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from './ingest/util.js';

/** Scripts run alone, each with why and how. */
const RUN_ALONE: Record<string, string> = {
  'ingest-at-scale.ts':
    'needs a file seeded by bench/metrics.ts --db FILE, then: node --import tsx bench/ingest-at-scale.ts --db FILE',
};

const benches = readdirSync(join(ROOT, 'bench'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== 'run-all.ts')
  .filter((f) => !(f in RUN_ALONE))
  .sort();

ensureBuilt();
const results: { name: string; code: number | null; seconds: number }[] = [];
for (const name of benches) {
  console.log(`\n━━━ bench/${name} ━━━`);
  const started = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', join('bench', name)], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, BENCH_NO_BUILD: '1' },
  });
  results.push({ name, code: r.status, seconds: (performance.now() - started) / 1000 });
}
console.log('\n━━━ summary ━━━');
for (const r of results)
  console.log(`  ${r.code === 0 ? 'ok  ' : 'FAIL'}  bench/${r.name}  (${r.seconds.toFixed(0)} s)`);
for (const [name, why] of Object.entries(RUN_ALONE)) console.log(`  skip  bench/${name}  — ${why}`);
process.exitCode = results.every((r) => r.code === 0) ? 0 : 1;
