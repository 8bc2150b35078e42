/**
 * The owner token's file (issue 40): made 0600 in a 0700 folder on first `serve`, printed by
 * `mcpulse-devtools token`, and refused — in one line, before anything is served — when
 * another user owns it or could change it. Real processes, a real home folder in /tmp.
 */
import { chmodSync, chownSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli, waitForOutput } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanups.splice(0)) fn();
});

/** A fresh home folder, and an environment without this file's test token. */
function home(): { dir: string; env: NodeJS.ProcessEnv } {
  const t = tempDir('mcpulse-home-');
  cleanups.push(t.remove);
  return { dir: t.dir, env: { HOME: t.dir, MCPULSE_DEVTOOLS_TOKEN: undefined } };
}

const isRoot = process.getuid?.() === 0;

describe('the token file', () => {
  it('serve makes it 0600 in a 0700 folder, prints it in the link, and keeps it', async () => {
    const { dir, env } = home();
    const child = spawnCli(['serve', '--port', '0', '--db', join(dir, 'd.db')], env);
    let link: URL;
    try {
      const out = await waitForOutput(child, (o) => /dashboard\s+http:\/\/\S+/.test(o));
      link = new URL(/dashboard\s+(http:\/\/\S+)/.exec(out)![1]!);
      // Named as this test ran it (from source), so the hint runs as typed (issue 43).
      expect(out).toContain('`node --import tsx src/cli/main.ts token` prints it again');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    const folder = join(dir, '.mcpulse-devtools');
    const file = join(folder, 'token');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = readFileSync(file, 'utf8').trim();
    // 32 random bytes, base64url.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.searchParams.get('token')).toBe(token);

    // `token` prints the same link for the default port, or --port's.
    const printed = await runCli(['token'], { env: { ...env, MCPULSE_DEVTOOLS_PORT: undefined } });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(`http://localhost:7857/?token=${token}\n`);
    const other = await runCli(['token', '--port', '9123'], { env });
    expect(other.stdout).toBe(`http://localhost:9123/?token=${token}\n`);
  });

  it('token makes one when there is none yet, and honours $MCPULSE_DEVTOOLS_TOKEN', async () => {
    const { dir, env } = home();
    const made = await runCli(['token', '--port', '1234'], { env });
    expect(made.code).toBe(0);
    const token = readFileSync(join(dir, '.mcpulse-devtools', 'token'), 'utf8').trim();
    expect(made.stdout).toBe(`http://localhost:1234/?token=${token}\n`);
    const fromEnv = await runCli(['token', '--port', '1234'], {
      env: { ...env, MCPULSE_DEVTOOLS_TOKEN: 'from-env' },
    });
    expect(fromEnv.stdout).toBe('http://localhost:1234/?token=from-env\n');
  });

  it('--help lists the token command', async () => {
    const help = await runCli(['--help']);
    expect(help.stdout).toMatch(/^ {2}token +print the dashboard's link with the owner token/m);
  });

  it.each([
    ['a token file others can write', 0o700, 0o666, /can be changed by other users \(mode 666\)/],
    ['a token file others can read', 0o700, 0o644, /can be read by other users \(mode 644\)/],
    ['a state folder others can write', 0o777, 0o600, /can be changed by other users \(mode 777\)/],
  ])('refuses %s in one line, serving nothing', async (_name, folderMode, fileMode, message) => {
    const { dir, env } = home();
    const folder = join(dir, '.mcpulse-devtools');
    mkdirSync(folder);
    chmodSync(folder, folderMode);
    writeFileSync(join(folder, 'token'), 'planted-by-someone\n');
    chmodSync(join(folder, 'token'), fileMode);
    const run = await runCli(['serve', '--port', '0', '--db', join(dir, 'd.db')], { env });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(message);
    const printed = await runCli(['token'], { env });
    expect(printed.code).toBe(1);
    expect(printed.stdout).toBe('');
    expect(printed.stderr).toMatch(message);
  });

  it.skipIf(!isRoot)(
    'refuses a token file another user owns (as root: chowned to nobody)',
    async () => {
      const { dir, env } = home();
      const folder = join(dir, '.mcpulse-devtools');
      mkdirSync(folder, { mode: 0o700 });
      writeFileSync(join(folder, 'token'), 'planted-by-someone\n', { mode: 0o600 });
      chownSync(join(folder, 'token'), 65534, 65534);
      const run = await runCli(['serve', '--port', '0', '--db', join(dir, 'd.db')], { env });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /token belongs to another user \(uid 65534\), so its token cannot be trusted/,
      );
      // A client refuses it too, rather than send someone else's token.
      const tail = await runCli(['tail', '--url', 'http://127.0.0.1:9', '--count', '1'], { env });
      expect(tail.code).toBe(1);
      expect(tail.stderr).toMatch(/belongs to another user/);
    },
  );
});
