/**
 * Opening a file made by an older version says so before the migrations run and again after
 * them — a ten-million-call file takes about a minute — and says nothing for a new file or a
 * current one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type UpgradeStep } from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { runCli } from '../helpers/cli.js';
import { olderFile, type OlderCall } from '../helpers/older-file.js';
import { tempDir } from '../helpers/temp-dir.js';

const LATEST = MIGRATIONS.at(-1)!.version;
const CALLS: OlderCall[] = Array.from({ length: 5 }, (_, i) => [
  's1',
  'c',
  'search',
  1_000 + i * 1_000,
  10 + i,
  'ok',
  100,
  'a1b2c3d4e5f6',
]);

/** A file on disk stopped before the last migration, holding CALLS. */
function olderFileAt(path: string): number {
  const { db, index } = olderFile(MIGRATIONS.at(-1)!.name, CALLS);
  writeFileSync(path, db.serialize());
  db.close();
  return MIGRATIONS[index - 1]!.version;
}

const dirs: ReturnType<typeof tempDir>[] = [];
const scratch = () => {
  const d = tempDir('mcpulse-upgrade-');
  dirs.push(d);
  return d.dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

describe('an upgrade says what it does', () => {
  it('reports the versions and the calls before migrating, and the time after', () => {
    const path = join(scratch(), 'old.db');
    const from = olderFileAt(path);
    const steps: UpgradeStep[] = [];
    const store = openStore(path, { onUpgrade: (s) => steps.push(s) });
    store.close();
    expect(steps).toEqual([
      { phase: 'start', from, to: LATEST, calls: CALLS.length },
      { phase: 'done', from, to: LATEST, ms: expect.any(Number) },
    ]);
    // Upgraded once: opening it again is silent.
    openStore(path, { onUpgrade: (s) => steps.push(s) }).close();
    expect(steps).toHaveLength(2);
  });

  it('is silent for a new file', () => {
    const steps: UpgradeStep[] = [];
    openStore(join(scratch(), 'new.db'), { onUpgrade: (s) => steps.push(s) }).close();
    expect(steps).toEqual([]);
  });

  it('`import` into an older file says it on stderr, one line before and one after', async () => {
    const dir = scratch();
    const path = join(dir, 'old.db');
    const from = olderFileAt(path);
    const input = join(dir, 'empty.jsonl');
    writeFileSync(input, '');
    const { code, stderr } = await runCli(['import', input, '--db', path]);
    expect(code).toBe(0);
    const lines = stderr.split('\n').filter((l) => l.startsWith('mcpulse-devtools: upgrad'));
    expect(lines).toEqual([
      `mcpulse-devtools: upgrading ${path} from schema ${from} to ${LATEST} (about 5 calls; a big file takes a while — keep this running)…`,
      expect.stringMatching(
        new RegExp(`^mcpulse-devtools: upgraded ${path} to schema ${LATEST} in \\d+\\.\\d s$`),
      ),
    ]);
  });
});
