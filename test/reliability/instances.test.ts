/**
 * Two instances: on the same port, or on the same database file. The second says so in one
 * line and exits non-zero; the first is undisturbed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  batchOf,
  expectOneLine,
  postIngest,
  serve,
  serveExpectingExit,
  tempDir,
} from './helpers/process.js';

const { dir, remove } = tempDir('mcpulse-instances-');
afterAll(remove);

it(
  'a second instance on the same port names the port and the fix',
  { timeout: 40_000 },
  async () => {
    const first = await serve(join(dir, 'a', 'devtools.db'));
    try {
      const port = new URL(first.url).port;
      const r = await serveExpectingExit(['--port', port, '--db', join(dir, 'b', 'devtools.db')]);
      expect(r.code).toBe(1);
      expect(expectOneLine(r.stderr)).toBe(
        `mcpulse-devtools: port ${port} on 127.0.0.1 is already in use (another mcpulse-devtools?) — ` +
          `stop it, or pick another port with --port N or MCPULSE_DEVTOOLS_PORT=N`,
      );
      expect((await postIngest(first.url, batchOf('s_first'))).status).toBe(202);
    } finally {
      await first.stop();
    }
  },
);

it(
  'a second instance on the same database says it is in use, and by which pid',
  { timeout: 40_000 },
  async () => {
    const db = join(dir, 'shared', 'devtools.db');
    const first = await serve(db);
    try {
      const r = await serveExpectingExit(['--port', '0', '--db', db]);
      expect(r.code).toBe(1);
      expect(expectOneLine(r.stderr)).toBe(
        `mcpulse-devtools: database ${db} is in use by another mcpulse-devtools (pid ${first.pid}) — ` +
          'stop that one, or pass --db with another path',
      );
      expect(r.stdout).toBe('');
      expect((await postIngest(first.url, batchOf('s_first'))).status).toBe(202);
    } finally {
      await first.stop();
    }
    // Released on a normal stop (and by the OS on kill -9: see crash.test.ts).
    const again = await serve(db);
    await again.stop();
  },
);

for (const kind of ['symlink', 'hard link'] as const) {
  it(
    `a ${kind} to a database in use is refused like the path itself`,
    { timeout: 60_000 },
    async () => {
      const real = join(dir, kind, 'devtools.db');
      const first = await serve(real);
      try {
        // A hard link may live in any folder of the same file system.
        const other = join(dir, kind, kind === 'symlink' ? 'link.db' : 'elsewhere/link.db');
        mkdirSync(dirname(other), { recursive: true });
        execFileSync('ln', kind === 'symlink' ? ['-s', real, other] : [real, other]);
        const r = await serveExpectingExit(['--port', '0', '--db', other]);
        expect(r.code).toBe(1);
        expect(expectOneLine(r.stderr)).toBe(
          `mcpulse-devtools: database ${other} is in use by another mcpulse-devtools (pid ${first.pid}) — ` +
            'stop that one, or pass --db with another path',
        );
        expect(r.stdout).toBe('');
        expect((await postIngest(first.url, batchOf('s_first'))).status).toBe(202);
      } finally {
        await first.stop();
      }
    },
  );
}
