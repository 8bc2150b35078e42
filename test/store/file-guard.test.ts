/**
 * The file guard (src/store/file-guard.ts) on a real database file: quiet while all is well,
 * its answer reused for CACHE_MS, each kind of loss named, and a loss never forgotten.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { CACHE_MS, createFileGuard } from '../../src/store/file-guard.js';
import { openStore } from '../../src/store/index.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpulse-guard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('reuses its answer for CACHE_MS, then sees the file gone, and keeps saying so', () => {
  const path = join(dir, 'a', 'devtools.db');
  const store = openStore(path);
  let ms = 0;
  const guard = createFileGuard(path, () => ms);
  try {
    expect(guard.problem()).toBeNull();
    renameSync(path, `${path}.moved`);
    ms += CACHE_MS - 1;
    expect(guard.problem()).toBeNull();
    ms += 1;
    expect(guard.problem()).toBe(`${path} was deleted while serving`);
    // Put back, it stays lost: the server has been refusing, and says why until restarted.
    renameSync(`${path}.moved`, path);
    ms += 1000;
    expect(guard.problem()).toBe(`${path} was deleted while serving`);
    expect(store.fileProblem()).toBeNull();
  } finally {
    store.close();
    guard.close();
  }
});

it('sees a file put in its place, and garbage over its header', () => {
  const path = join(dir, 'b', 'devtools.db');
  const store = openStore(path);
  let ms = 0;
  const replaced = createFileGuard(path, () => (ms += 1000));
  const overwritten = createFileGuard(path, () => (ms += 1000));
  try {
    const bytes = Buffer.alloc(4096, 0x5a);
    writeFileSync(path, bytes, { flag: 'r+' });
    expect(overwritten.problem()).toBe(`${path} was overwritten: its header is damaged`);
    writeFileSync(`${path}.new`, 'x');
    renameSync(`${path}.new`, path);
    expect(replaced.problem()).toBe(`${path} was replaced by another file while serving`);
  } finally {
    store.close();
    replaced.close();
    overwritten.close();
  }
});

it('closes once however often it is told to, as the store may be', () => {
  const path = join(dir, 'c', 'devtools.db');
  const store = openStore(path);
  store.close();
  expect(() => store.close()).not.toThrow();
});
