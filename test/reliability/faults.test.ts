/**
 * The database locked, read-only, on a full disk or corrupted: one clear line and a non-zero
 * exit when serve cannot start (no stack trace, no retry loop); when it fails under a running
 * server, ingest answers 503 with {"error"} — never a 202 for data that was not stored — and
 * the server keeps serving and recovers once the fault is gone.
 */
import Database from 'better-sqlite3';
import {
  closeSync,
  openSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { startTestServer, storedBySession } from '../helpers/server.js';
import {
  batchOf,
  canMount,
  chattr,
  expectOneLine,
  holdWriteLock,
  mountTmpfs,
  postIngest,
  serve,
  serveExpectingExit,
  tempDir,
} from './helpers/process.js';
import { connectionOf } from '../../src/store/connection.js';
import { authedFetch } from '../helpers/token.js';

const { dir, remove } = tempDir('mcpulse-faults-');
afterAll(remove);

const isRoot = process.getuid?.() === 0;
const mountable = process.platform === 'linux' && isRoot && canMount();

/** A fresh, migrated database file in its own folder. */
function seededDb(name: string): string {
  const path = join(dir, name, 'devtools.db');
  const store = openStore(path);
  store.close();
  return path;
}

async function seed(url: string, sessions: string[]): Promise<void> {
  for (const s of sessions) expect((await postIngest(url, batchOf(s))).status).toBe(202);
}

async function expect503(url: string, session: string): Promise<string> {
  const res = await postIngest(url, batchOf(session));
  const text = await res.text();
  expect(res.status, text).toBe(503);
  const body = JSON.parse(text) as { error: string };
  expect(body.error).toMatch(/^could not store the batch: /);
  return body.error;
}

async function expectResponsive(url: string): Promise<void> {
  const res = await authedFetch(`${url}/api/status`);
  expect(res.status).toBe(200);
}

describe('locked by another process', () => {
  it('at startup: one line naming the lock, exit 1', { timeout: 30_000 }, async () => {
    const db = seededDb('locked-start');
    const lock = await holdWriteLock(db);
    try {
      const r = await serveExpectingExit(['--port', '0', '--db', db]);
      expect(r.code).toBe(1);
      expect(expectOneLine(r.stderr)).toBe(
        `mcpulse-devtools: database ${db} is locked by another process — close it, or pass --db with another path`,
      );
    } finally {
      await lock.release();
    }
  });

  it(
    'while serving: 503 after the busy timeout, nothing half-stored, 202 again once released',
    { timeout: 40_000 },
    async () => {
      const db = seededDb('locked-run');
      const server = await serve(db);
      try {
        await seed(server.url, ['s_before']);
        const lock = await holdWriteLock(db);
        let error: string;
        try {
          error = await expect503(server.url, 's_during');
        } finally {
          await lock.release();
        }
        expect(error).toMatch(/database is locked/);
        await expectResponsive(server.url);
        await seed(server.url, ['s_after']);
        expect(storedBySession(db)).toEqual({ s_before: 30, s_after: 30 });
      } finally {
        await server.stop();
      }
    },
  );
});

describe('read-only', () => {
  it.skipIf(!isRoot && process.platform === 'win32')(
    'a write-protected file (chattr +i as root, chmod otherwise): one line, exit 1',
    { timeout: 30_000 },
    async () => {
      const db = seededDb('readonly-file');
      let undo: () => void;
      if (isRoot) {
        if (!chattr('+i', db)) return; // a filesystem without attributes: nothing honest to test
        undo = () => chattr('-i', db);
      } else {
        const { chmodSync } = await import('node:fs');
        chmodSync(db, 0o444);
        undo = () => chmodSync(db, 0o644);
      }
      try {
        const r = await serveExpectingExit(['--port', '0', '--db', db]);
        expect(r.code).toBe(1);
        expect(expectOneLine(r.stderr)).toMatch(
          new RegExp(
            `^mcpulse-devtools: database ${db} cannot be opened for writing \\(.+\\) — check its permissions`,
          ),
        );
      } finally {
        undo();
      }
    },
  );

  it.skipIf(!mountable)(
    'a read-only filesystem: one line, exit 1',
    { timeout: 30_000 },
    async () => {
      const fs = mountTmpfs('4m');
      try {
        const db = join(fs.dir, 'devtools.db');
        openStore(db).close();
        const { spawnSync } = await import('node:child_process');
        expect(spawnSync('mount', ['-o', 'remount,ro', fs.dir]).status).toBe(0);
        const r = await serveExpectingExit(['--port', '0', '--db', db]);
        expect(r.code).toBe(1);
        expect(expectOneLine(r.stderr)).toMatch(
          /^mcpulse-devtools: database .+ cannot be opened for writing/,
        );
      } finally {
        fs.unmount();
      }
    },
  );
});

describe('disk full', () => {
  it.skipIf(!mountable)(
    'a real full filesystem (4 MiB tmpfs): 503s while full, serving throughout, 202 once space is freed',
    { timeout: 60_000 },
    async () => {
      const fs = mountTmpfs('4m');
      const filler = join(fs.dir, 'filler');
      try {
        const db = join(fs.dir, 'devtools.db');
        const server = await serve(db);
        try {
          await seed(server.url, ['s_before']);
          // Fill every remaining byte.
          const fd = openSync(filler, 'w');
          const chunk = Buffer.alloc(64 * 1024, 1);
          try {
            for (;;) writeSync(fd, chunk);
          } catch (error) {
            expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
          } finally {
            closeSync(fd);
          }
          // The WAL may still have room for a batch or two in pages it already holds; every
          // answer must match what is stored, and it must come to 503s.
          const acked: string[] = ['s_before'];
          let refused = 0;
          for (let i = 0; i < 40 && refused < 3; i++) {
            const res = await postIngest(server.url, batchOf(`s_full_${i}`, 200));
            if (res.status === 202) acked.push(`s_full_${i}`);
            else {
              expect(res.status).toBe(503);
              expect(((await res.json()) as { error: string }).error).toMatch(
                /could not store the batch: .*(full|disk)/i,
              );
              refused++;
            }
            await expectResponsive(server.url);
          }
          expect(refused).toBe(3);
          unlinkSync(filler);
          await seed(server.url, ['s_after']);
          acked.push('s_after');
          const stored = storedBySession(db);
          expect(Object.keys(stored).sort()).toEqual(acked.sort());
        } finally {
          await server.stop();
        }
      } finally {
        rmSync(filler, { force: true });
        fs.unmount();
      }
    },
  );

  it.skipIf(!mountable)(
    'a full filesystem at startup: one line, exit 1',
    { timeout: 30_000 },
    async () => {
      const fs = mountTmpfs('1m');
      try {
        writeFileSync(join(fs.dir, 'filler'), Buffer.alloc(0));
        const fd = openSync(join(fs.dir, 'filler'), 'w');
        try {
          for (;;) writeSync(fd, Buffer.alloc(16 * 1024, 1));
        } catch {
          // full
        } finally {
          closeSync(fd);
        }
        const r = await serveExpectingExit(['--port', '0', '--db', join(fs.dir, 'devtools.db')]);
        expect(r.code).toBe(1);
        expect(expectOneLine(r.stderr)).toMatch(
          /^mcpulse-devtools: database .+ (the disk is full|cannot be opened for writing)/,
        );
      } finally {
        fs.unmount();
      }
    },
  );

  it("SQLite's own page limit (max_page_count, anywhere): 503, and every 202 is stored", async () => {
    const t = await startTestServer({ retention: false });
    try {
      await seed(t.url, ['s_before']);
      const pages = connectionOf(t.store).pragma('page_count', { simple: true }) as number;
      connectionOf(t.store).pragma(`max_page_count = ${pages + 3}`);
      const acked = ['s_before'];
      let refused = 0;
      for (let i = 0; i < 30 && refused < 3; i++) {
        const res = await postIngest(t.url, batchOf(`s_cap_${i}`, 100));
        if (res.status === 202) acked.push(`s_cap_${i}`);
        else {
          expect(res.status).toBe(503);
          expect(((await res.json()) as { error: string }).error).toBe(
            'could not store the batch: database or disk is full',
          );
          refused++;
        }
      }
      expect(refused).toBe(3);
      connectionOf(t.store).pragma('max_page_count = 1073741823');
      await seed(t.url, ['s_after']);
      acked.push('s_after');
      expect(Object.keys(storedBySession(t.dbPath)).sort()).toEqual(acked.sort());
    } finally {
      await t.close();
    }
  });
});

describe('corrupted', () => {
  it('garbage bytes: one line, exit 1, no stack trace', { timeout: 30_000 }, async () => {
    const db = join(dir, 'garbage', 'devtools.db');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'garbage'));
    writeFileSync(db, Buffer.from(Array.from({ length: 64 * 1024 }, (_, i) => (i * 7919) % 251)));
    const r = await serveExpectingExit(['--port', '0', '--db', db]);
    expect(r.code).toBe(1);
    expect(expectOneLine(r.stderr)).toBe(
      `mcpulse-devtools: database ${db} is not a readable SQLite database (corrupted?) — move it aside or pass --db with another path`,
    );
  });

  it(
    'damaged pages under the calls table: ingest answers 503, the rest keeps serving',
    { timeout: 30_000 },
    async () => {
      const db = join(dir, 'damaged', 'devtools.db');
      const store = openStore(db);
      store.close();
      {
        const server = await serve(db);
        try {
          for (let i = 0; i < 20; i++) await seed(server.url, [`s_${i}`]);
        } finally {
          await server.stop();
        }
      }
      // Find the pages of the calls table and its indexes, and scribble over them.
      const raw = new Database(db);
      raw.pragma('wal_checkpoint(TRUNCATE)');
      const pageSize = raw.pragma('page_size', { simple: true }) as number;
      const pages = raw
        .prepare<[], { pageno: number }>(
          "SELECT pageno FROM dbstat WHERE name = 'calls' OR name IN (SELECT name FROM sqlite_schema WHERE tbl_name = 'calls' AND type = 'index')",
        )
        .all();
      raw.close();
      expect(pages.length).toBeGreaterThan(2);
      const bytes = readFileSync(db);
      for (const { pageno } of pages) bytes.fill(0xa5, (pageno - 1) * pageSize, pageno * pageSize);
      writeFileSync(db, bytes);

      const server = await serve(db);
      try {
        const error = await expect503(server.url, 's_new');
        expect(error).toMatch(/malformed|corrupt/i);
        // Reads of the damaged table fail (500 with the reason); everything else still answers.
        const calls = await authedFetch(`${server.url}/api/calls`);
        expect(calls.status).toBe(500);
        expect(((await calls.json()) as { error: string }).error).toMatch(/malformed/);
        expect((await authedFetch(`${server.url}/api/settings/retention`)).status).toBe(200);
        // Still alive after more of the same.
        await expect503(server.url, 's_new_2');
        expect(server.child.exitCode).toBeNull();
      } finally {
        await server.stop();
      }
    },
  );
});
