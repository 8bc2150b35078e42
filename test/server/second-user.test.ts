/**
 * A second account on the same machine (issue 40): a throwaway user this test adds (as root)
 * and removes, talking to a real `serve` that made its own token file. Without the token — and
 * it cannot read the 0600 file in the 0700 folder — it can neither read content nor clear data.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli, waitForOutput } from '../helpers/cli.js';
import { REQUEST_SCRIPT } from '../helpers/netns.js';
import { capture } from '../helpers/server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { CLEAR_CONFIRMATION } from '../../src/api/admin-routes.js';

/** Why a second user cannot be made here, or null. */
function unavailable(): string | null {
  if (process.getuid?.() !== 0) return 'needs root to add a user';
  for (const tool of ['useradd', 'userdel', 'runuser'])
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `needs ${tool}`;
  return null;
}
const why = unavailable();

type Answer = { status: number; body: string };

describe.skipIf(why !== null)(
  `another account on this machine${why ? ` (skipped: ${why})` : ''}`,
  () => {
    const user = `mcpt${randomInt(100000, 999999)}`;
    let home: { dir: string; remove: () => void };
    let child: ReturnType<typeof spawnCli>;
    let port: number;
    let token: string;
    let session: string;

    /** Runs `node -e script args` as the second user; stdout, or the error it printed. */
    const asUser = (script: string, args: string[] = []) =>
      spawnSync('runuser', ['-u', user, '--', process.execPath, '-e', script, ...args], {
        encoding: 'utf8',
        cwd: '/',
        timeout: 15_000,
      });
    const request = (o: { path: string; method?: string; body?: string }): Answer =>
      JSON.parse(
        asUser(REQUEST_SCRIPT, [
          JSON.stringify({
            url: `http://127.0.0.1:${port}${o.path}`,
            method: o.method,
            headers: { 'content-type': 'application/json' },
            body: o.body,
          }),
        ]).stdout,
      ) as Answer;
    const owner = (path: string) =>
      fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'x-devtools-token': token } });

    beforeAll(async () => {
      execFileSync('useradd', [
        '--system',
        '--no-create-home',
        '--shell',
        '/usr/sbin/nologin',
        user,
      ]);
      home = tempDir('mcpulse-owner-home-');
      // An ordinary home: others may pass through it; the state folder inside is the owner's.
      chmodSync(home.dir, 0o755);
      child = spawnCli(['serve', '--port', '0'], {
        HOME: home.dir,
        MCPULSE_DEVTOOLS_TOKEN: undefined,
        MCPULSE_DEVTOOLS_DB: undefined,
      });
      const out = await waitForOutput(child, (o) => /dashboard\s+http:\/\/\S+/.test(o), 20_000);
      const link = new URL(/dashboard\s+(http:\/\/\S+)/.exec(out)![1]!);
      port = Number(link.port);
      token = link.searchParams.get('token')!;
      const ingest = await fetch(`http://127.0.0.1:${port}/v1/ingest`, {
        method: 'POST',
        headers: { authorization: 'Bearer mp_live_owner', 'content-type': 'application/json' },
        body: capture('ts-sdk-exercise'),
      });
      expect(ingest.status).toBe(202);
      session = ((await (await owner('/api/calls')).json()) as { calls: { session_id: string }[] })
        .calls[0]!.session_id;
    }, 40_000);
    afterAll(async () => {
      if (child) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      spawnSync('userdel', [user]);
      home?.remove();
    });

    it('the token was made where the owner keeps it, and it is the printed one', () => {
      expect(readFileSync(join(home.dir, '.mcpulse-devtools', 'token'), 'utf8').trim()).toBe(token);
    });

    it('cannot read the token file, nor the database', () => {
      for (const file of ['token', 'devtools.db']) {
        const read = asUser(
          `require('node:fs').readFileSync(process.argv[1]); console.log('read it')`,
          [join(home.dir, '.mcpulse-devtools', file)],
        );
        expect(read.stdout).not.toContain('read it');
        expect(read.stderr).toMatch(/EACCES/);
      }
    });

    it('cannot read content: /api/messages, /api/calls and the export answer 401', () => {
      for (const path of [
        `/api/messages?session=${session}`,
        '/api/calls',
        `/api/sessions/${session}`,
        '/api/export?format=jsonl&content=true',
      ]) {
        const answer = request({ path });
        expect(answer.status, path).toBe(401);
        expect(answer.body).not.toContain(session);
      }
    });

    it('cannot clear data: /api/admin/clear answers 401 and everything is still there', async () => {
      const answer = request({
        path: '/api/admin/clear',
        method: 'POST',
        body: JSON.stringify({ confirm: CLEAR_CONFIRMATION }),
      });
      expect(answer.status).toBe(401);
      expect(answer.body).toMatch(/mcpulse-devtools token/);
      const { calls } = (await (await owner('/api/calls')).json()) as { calls: unknown[] };
      expect(calls.length).toBeGreaterThan(0);
    });

    it('sees only that a dashboard runs: the status, locked, without the database path', () => {
      const answer = request({ path: '/api/status' });
      expect(answer.status).toBe(200);
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      expect(body.authorised).toBe(false);
      expect(answer.body).not.toContain(home.dir);
    });
  },
);
