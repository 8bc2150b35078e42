import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli, waitForOutput } from '../helpers/cli.js';
import { TEST_TOKEN } from '../helpers/token.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcpulse-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('mcpulse-devtools serve', () => {
  it('prints its URL and database, accepts ingest, and stops cleanly on SIGTERM', async () => {
    const db = join(dir, 'serve.db');
    const child = spawnCli(['serve', '--port', '0', '--db', db]);
    const out = await waitForOutput(child, (o) => /dashboard\s+http:\/\/localhost:\d+/.test(o));
    // The dashboard line is the link to open: the origin, and the owner token to trade for a cookie.
    const link = new URL(/dashboard\s+(http:\/\/\S+)/.exec(out)![1]!);
    const url = link.origin.replace('127.0.0.1', 'localhost');
    expect(link.searchParams.get('token')).toBe(TEST_TOKEN);
    expect(out).toContain(`database   ${db}`);
    // The value to paste is the base URL, on its own line, apart from the route.
    const endpointLine = out.split('\n').find((l) => l.trimStart().startsWith('endpoint'))!;
    expect(endpointLine.split(/\s+/)[2]).toBe(url);
    expect(endpointLine).not.toContain('/v1/ingest');
    expect(out).toContain(`POST ${url}/v1/ingest`);
    const res = await fetch(`${url}/v1/ingest`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"batch":[]}',
    });
    expect(res.status).toBe(202);
    child.kill('SIGTERM');
    expect(await new Promise((r) => child.once('exit', r))).toBe(0);
  });

  it('says in one line that the port is taken, and exits non-zero', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { code, stderr } = await runCli([
        'serve',
        '--port',
        String(port),
        '--db',
        join(dir, 'busy.db'),
      ]);
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(new RegExp(`port ${port} .*already in use.*--port N`));
    } finally {
      blocker.close();
    }
  });

  it('honours MCPULSE_DEVTOOLS_PORT and rejects a bad --port with usage', async () => {
    const bad = await runCli(['serve', '--port', 'seventy']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--port: expected 0–65535/);
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    const child = spawnCli(['serve', '--db', join(dir, 'env.db')], {
      MCPULSE_DEVTOOLS_PORT: String(port),
    });
    await waitForOutput(child, (o) => o.includes(`dashboard  http://localhost:${port}`));
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    const help = await runCli(['serve', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/MCPULSE_DEVTOOLS_PORT/);
  });

  it('reports an unreadable database in one line', async () => {
    const { writeFileSync } = await import('node:fs');
    const junk = join(dir, 'junk.db');
    writeFileSync(
      junk,
      'this is not a database, just text that is long enough to look like a header'.repeat(100),
    );
    const { code, stderr } = await runCli(['serve', '--port', '0', '--db', junk]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/database .*junk\.db is not a readable SQLite database/);
  });
});

describe('mcpulse-devtools start', () => {
  it('falls back to the headless dashboard with one line when Electron cannot start', async () => {
    const child = spawnCli(['start', '--port', '0', '--db', join(dir, 'start.db')], {
      DISPLAY: '',
      WAYLAND_DISPLAY: '',
    });
    await waitForOutput(child, (o) => /dashboard\s+http:\/\/localhost:\d+/.test(o));
    expect(child.err()).toMatch(
      /^Electron cannot start here \(.+\): serving the dashboard in your browser instead\n/,
    );
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  });
});
