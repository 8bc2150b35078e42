/**
 * The file guard (src/store/file-guard.ts) on a real database file: quiet while all is well,
 * its answer reused for CACHE_MS, each kind of loss named, and a loss never forgotten.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { CACHE_MS, createFileGuard } from '../../src/store/file-guard.js';
import { FILE_LOST_FIX, FileLostError, openStore } from '../../src/store/index.js';

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

it("the store's write door refuses a lost file itself: a batch, proxy content, the spool", async () => {
  const path = join(dir, 'door', 'devtools.db');
  const store = openStore(path);
  try {
    const record = {
      keySha256: 'a'.repeat(64),
      keyPrefix: 'mp_live_door',
      receivedMs: Date.now(),
      status: 202,
      bodyBytes: 2,
      userAgent: null,
      error: null,
      calls: [],
      startups: [],
      rejections: [],
    };
    expect(store.writeBatch(record).batchId).toBeGreaterThan(0);
    rmSync(path);
    await new Promise((r) => setTimeout(r, 4 * CACHE_MS));
    const lost = new FileLostError(`${path} was deleted while serving`);
    expect(lost.message).toBe(`database ${path} was deleted while serving; ${FILE_LOST_FIX}`);
    expect(() => store.writeBatch(record)).toThrow(lost);
    expect(() =>
      store.writeContent({
        keySha256: record.keySha256,
        keyPrefix: record.keyPrefix,
        receivedMs: record.receivedMs,
        sessionId: 's_door',
        session: null,
        messages: [],
        unanswered: [],
        rejections: [],
        bodyBytes: 2,
        userAgent: null,
      }),
    ).toThrow(lost);
    expect(() => store.spool.add([])).toThrow(lost);
    // Reads still answer, the derived-facts flush included.
    expect(() => store.flushDerived()).not.toThrow();
  } finally {
    store.close();
  }
});
