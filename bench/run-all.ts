/**
 * `npm run bench`: builds dist/ once, then runs every bench/*.ts script (except this one) in
 * turn, each in its own process, and exits non-zero if any of them did.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from './ingest/util.js';

const benches = readdirSync(join(ROOT, 'bench'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== 'run-all.ts')
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
process.exitCode = results.every((r) => r.code === 0) ? 0 : 1;
