/**
 * One writer per database file, whatever name it is reached by and whatever the environment:
 * a hard link served with another TMPDIR, a bind mount, a /proc/<pid>/fd path. No other local
 * user can block the lock by creating the old shared folder first. And the files are the
 * user's alone: database, WAL, SHM and lock file 0600, the folders created for them 0700.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { inodeLockPathFor, lockFolder, lockOwnerPid } from '../../src/store/instance-lock.js';
import { openStore } from '../../src/store/index.js';
import { storedBySession } from '../helpers/server.js';
import {
  batchOf,
  expectOneLine,
  postIngest,
  serve,
  serveExpectingExit,
  tempDir,
} from './helpers/process.js';

const { dir, remove } = tempDir('mcpulse-one-writer-');
afterAll(remove);

const isRoot = process.getuid?.() === 0;
const inUseLine = (db: string, pid: number): string =>
  `mcpulse-devtools: database ${db} is in use by another mcpulse-devtools (pid ${pid}) — ` +
  'stop that one, or pass --db with another path';
const mode = (path: string): number => statSync(path).mode & 0o777;

it(
  'a hard link served with another TMPDIR is refused, and the first keeps every acknowledged batch',
  { timeout: 60_000 },
  async () => {
    const real = join(dir, 'hardlink', 'devtools.db');
    const otherTmp = join(dir, 'hardlink', 'other-tmp');
    mkdirSync(otherTmp, { recursive: true });
    const first = await serve(real);
    try {
      const link = join(dir, 'hardlink', 'elsewhere', 'link.db');
      mkdirSync(join(dir, 'hardlink', 'elsewhere'));
      execFileSync('ln', [real, link]);
      const r = await serveExpectingExit(['--port', '0', '--db', link], 20_000, {
        TMPDIR: otherTmp,
      });
      expect(r.code).toBe(1);
      expect(expectOneLine(r.stderr)).toBe(inUseLine(link, first.pid));
      expect(r.stdout).toBe('');
      // Who holds it, by either name (what names the devtools holding a port).
      expect(lockOwnerPid(real)).toBe(first.pid);
      expect(lockOwnerPid(link)).toBe(first.pid);
      for (let i = 0; i < 5; i++)
        expect((await postIngest(first.url, batchOf(`s_first_${i}`))).status).toBe(202);
    } finally {
      await first.stop();
    }
    expect(Object.keys(storedBySession(real)).sort()).toEqual(
      [0, 1, 2, 3, 4].map((i) => `s_first_${i}`),
    );
  },
);

it(
  'the old shared lock folder, created first by anyone, no longer blocks serve',
  {
    timeout: 40_000,
  },
  async () => {
    const tmp = join(dir, 'squatted-tmp');
    mkdirSync(tmp);
    // What another user could do before: take the folder's name with a file of their own.
    writeFileSync(join(tmp, `mcpulse-devtools-locks-${process.getuid?.() ?? 'user'}`), 'mine');
    const server = await serve(join(dir, 'squatted', 'devtools.db'), [], { TMPDIR: tmp });
    try {
      expect((await postIngest(server.url, batchOf('s_ok'))).status).toBe(202);
    } finally {
      await server.stop();
    }
  },
);

it.skipIf(!isRoot)(
  'a bind mount of the folder and a /proc/<pid>/fd path are the same database',
  { timeout: 60_000 },
  async () => {
    const realDir = join(dir, 'bind-real');
    const mounted = join(dir, 'bind-mounted');
    mkdirSync(realDir);
    mkdirSync(mounted);
    const real = join(realDir, 'devtools.db');
    openStore(real).close();
    const first = await serve(real);
    const fd = openSync(real, 'r');
    let bound = false;
    try {
      const mount = spawnSync('mount', ['--bind', realDir, mounted]);
      bound = mount.status === 0;
      expect(bound, `mount --bind: ${mount.stderr?.toString()}`).toBe(true);
      const viaMount = join(mounted, 'devtools.db');
      const r1 = await serveExpectingExit(['--port', '0', '--db', viaMount]);
      expect(r1.code).toBe(1);
      expect(expectOneLine(r1.stderr)).toBe(inUseLine(viaMount, first.pid));
      const viaProc = `/proc/${process.pid}/fd/${fd}`;
      const r2 = await serveExpectingExit(['--port', '0', '--db', viaProc]);
      expect(r2.code).toBe(1);
      expect(expectOneLine(r2.stderr)).toBe(inUseLine(viaProc, first.pid));
      expect((await postIngest(first.url, batchOf('s_first'))).status).toBe(202);
    } finally {
      closeSync(fd);
      if (bound) spawnSync('umount', [mounted]);
      await first.stop();
    }
  },
);

it(
  'database, WAL, SHM and lock file are 0600, the folders created for them 0700',
  {
    timeout: 40_000,
  },
  async () => {
    // An existing 0644 database from before is tightened too.
    const oldDb = join(dir, 'perm-old', 'devtools.db');
    mkdirSync(join(dir, 'perm-old'));
    openStore(oldDb).close();
    chmodSync(oldDb, 0o644);
    const db = join(dir, 'perm', 'home', '.mcpulse-devtools', 'devtools.db');
    for (const path of [db, oldDb]) {
      const server = await serve(path);
      try {
        expect((await postIngest(server.url, batchOf('s_perm'))).status).toBe(202);
        for (const suffix of ['', '-wal', '-shm']) expect(mode(`${path}${suffix}`)).toBe(0o600);
        const { dev, ino } = statSync(path, { bigint: true });
        const lock = inodeLockPathFor(dev, ino);
        expect(mode(lock)).toBe(0o600);
        expect(mode(lockFolder())).toBe(0o700);
      } finally {
        await server.stop();
      }
      // The holder deletes its lock file as it lets go: none piles up per database.
      const { dev, ino } = statSync(path, { bigint: true });
      expect(existsSync(inodeLockPathFor(dev, ino))).toBe(false);
    }
    expect(mode(join(dir, 'perm', 'home', '.mcpulse-devtools'))).toBe(0o700);
    expect(mode(join(dir, 'perm', 'home'))).toBe(0o700);
  },
);
