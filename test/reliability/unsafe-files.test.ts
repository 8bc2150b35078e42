/**
 * A database another local account controls is refused at start (issue 40): `serve` prints one
 * line saying why and what to do, exits 1, and touches nothing. Before, a file another user
 * owned and made world-writable was served, and its -wal and -shm came out 0666. A file of
 * this user's that is merely too open is still served, tightened to 0600.
 */
import Database from 'better-sqlite3';
import { chmodSync, chownSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  expectOneLine,
  postIngest,
  batchOf,
  serve,
  serveExpectingExit,
  tempDir,
} from './helpers/process.js';

const { dir, remove } = tempDir('mcpulse-unsafe-files-');
afterAll(remove);

const mode = (path: string): number => statSync(path).mode & 0o777;
const isRoot = process.getuid?.() === 0;
/** `nobody`'s uid and gid (65534 on Debian and most Linux). */
const NOBODY = 65534;

/** A small real database at `path` (a table, so it is not empty), in a 0700 folder. */
function makeDb(path: string): void {
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  const db = new Database(path);
  db.exec('CREATE TABLE t (x)');
  db.close();
}

/** `serve` on `db` refuses with exactly one line (returned), exit 1, nothing printed on stdout. */
async function refused(db: string): Promise<string> {
  const r = await serveExpectingExit(['--port', '0', '--db', db]);
  expect(r.code, r.stderr).toBe(1);
  expect(r.stdout).not.toMatch(/dashboard/);
  return expectOneLine(r.stderr);
}

describe('unsafe database files', () => {
  it('refuses a database in a folder others may write to, naming the folder and the fix', async () => {
    const folder = join(dir, 'shared');
    const db = join(folder, 'devtools.db');
    makeDb(db);
    chmodSync(folder, 0o777);
    const before = statSync(db).mtimeMs;
    expect(await refused(db)).toBe(
      `mcpulse-devtools: database ${db} is in ${folder}, which other users may write to (mode 0777): ` +
        `they could replace the database or plant its -wal — run chmod go-w ${folder}, or pass --db with a path in a folder of your own`,
    );
    // Nothing changed: neither the folder's mode nor the file.
    expect(mode(folder)).toBe(0o777);
    expect(statSync(db).mtimeMs).toBe(before);
    // Group-writable is refused too; once the folder is fixed it serves.
    chmodSync(folder, 0o770);
    expect(await refused(db)).toMatch(/which other users may write to \(mode 0770\)/);
    chmodSync(folder, 0o700);
    const served = await serve(db);
    try {
      expect((await postIngest(served.url, batchOf('s_fixed'))).status).toBe(202);
    } finally {
      await served.stop();
    }
  });

  it('tightens a world-writable database of this user to 0600 (with its -wal and -shm) and serves it', async () => {
    const db = join(dir, 'mine', 'devtools.db');
    makeDb(db);
    chmodSync(db, 0o666);
    const served = await serve(db);
    try {
      expect((await postIngest(served.url, batchOf('s_mine'))).status).toBe(202);
      for (const suffix of ['', '-wal', '-shm']) expect(mode(`${db}${suffix}`)).toBe(0o600);
    } finally {
      await served.stop();
    }
  });

  it.skipIf(!isRoot)(
    'refuses a world-writable database another user owns (chown nobody), and a -wal planted by one',
    async () => {
      const db = join(dir, 'theirs', 'devtools.db');
      makeDb(db);
      chownSync(db, NOBODY, NOBODY);
      chmodSync(db, 0o666);
      expect(await refused(db)).toBe(
        `mcpulse-devtools: database ${db} is owned by another user (uid ${NOBODY}, mode 0666), ` +
          `who can read and change everything in it — copy it to a file of your own, or pass --db with another path`,
      );
      // Left as it was: not tightened, no -wal or -shm made 0666 beside it.
      expect(mode(db)).toBe(0o666);
      expect(() => statSync(`${db}-wal`)).toThrow();
      expect(() => statSync(`${db}-shm`)).toThrow();

      // Our own database with a -wal another user planted before SQLite made one.
      const ours = join(dir, 'planted', 'devtools.db');
      makeDb(ours);
      closeSync(openSync(`${ours}-wal`, 'w', 0o666));
      chownSync(`${ours}-wal`, NOBODY, NOBODY);
      expect(await refused(ours)).toMatch(
        new RegExp(
          `^mcpulse-devtools: database ${ours}: its -wal file ${ours}-wal is owned by another user \\(uid ${NOBODY}`,
        ),
      );
    },
  );
});
