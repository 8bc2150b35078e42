/**
 * The `proxy` command line: flags, the server command after `--`, clear usage errors, a command
 * that cannot start, and the fallback that starts a dashboard when none answers at --url.
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultKey, parseProxyArgs } from '../../src/cli/commands/proxy-args.js';
import { UsageError } from '../../src/cli/io.js';
import type { CallRow } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { connectClient, proxied, PY_SERVER, scratchDir, until } from './helpers.js';
import { getRemote } from '../../src/api/remote.js';
import { TEST_TOKEN } from '../helpers/token.js';

const env = {};

describe('parsing', () => {
  it('takes everything after -- as the server command, its flags included', () => {
    expect(
      parseProxyArgs(['--key', 'k', '--', 'npx', '-y', 'pkg', '--url', 'x'], env),
    ).toMatchObject({
      mode: 'stdio',
      key: 'k',
      url: 'http://localhost:7857',
      command: 'npx',
      args: ['-y', 'pkg', '--url', 'x'],
    });
  });

  it('without --, the command starts at the first word that is not a flag', () => {
    expect(
      parseProxyArgs(['--url', 'http://127.0.0.1:9/', 'python3', 'server.py', '-v'], env),
    ).toMatchObject({
      url: 'http://127.0.0.1:9',
      command: 'python3',
      args: ['server.py', '-v'],
      fallbackKey: 'px_server',
    });
  });

  it('names the default key after the server, so each server is its own project', () => {
    expect(defaultKey('npx', ['-y', '@modelcontextprotocol/server-everything'])).toBe(
      'px_server-everything',
    );
    expect(defaultKey('/usr/local/bin/my-mcp', [])).toBe('px_my-mcp');
    expect(
      parseProxyArgs(['--http', '--target', 'http://localhost:3000/mcp', '--listen', '0'], env),
    ).toMatchObject({
      mode: 'http',
      fallbackKey: 'px_localhost-3000',
      listen: 0,
    });
  });

  it('refuses what it cannot do, saying why', () => {
    const bad: [string[], RegExp][] = [
      [[], /expected the server command/],
      [['--key', ' ', '--', 'x'], /empty key/],
      [['--url', 'ftp://x', '--', 'x'], /--url/],
      [['--http', '--listen', '1'], /--target/],
      [['--http', '--target', 'nope', '--listen', '1'], /--target/],
      [['--http', '--target', 'http://h/mcp'], /--listen/],
      [['--http', '--target', 'http://h/mcp', '--listen', '1', '--', 'node'], /does not start/],
      [['--listen', '1', '--', 'x'], /--http mode/],
      [['--bogus', '--', 'x'], /bogus/],
    ];
    for (const [argv, message] of bad)
      expect(() => parseProxyArgs(argv, env), argv.join(' ')).toThrow(message);
    expect(() => parseProxyArgs([], env)).toThrow(UsageError);
  });
});

describe('the command', () => {
  it('prints usage with --help, and a usage error with exit 2', async () => {
    const help = await runCli(['proxy', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('-- COMMAND [ARGS…]');
    const bad = await runCli(['proxy']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('mcpulse-devtools proxy: expected the server command');
  });

  it('exits 127 with one line when the server command does not exist', async () => {
    // Nothing answers on port 9, so the proxy starts a dashboard there: on a file of its own.
    const db = join(scratchDir('mcpulse-proxy-db-'), 'devtools.db');
    const run = await runCli([
      'proxy',
      '--url',
      'http://127.0.0.1:9',
      '--db',
      db,
      '--',
      '/no/such/server',
    ]);
    expect(run.code).toBe(127);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("cannot start '/no/such/server'");
  });

  it('starts a dashboard at --url when none answers there, and sends to it', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    const url = `http://127.0.0.1:${port}`;
    const db = join(scratchDir('mcpulse-proxy-db-'), 'devtools.db');
    const { client, transport } = await connectClient(
      proxied(PY_SERVER, url, ['--db', db, '--key', 'k_started']),
    );
    await client.listTools();
    await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    // The proxy flushes every 2 s; its dashboard answers while the proxy runs.
    const { calls } = await until(
      // Refused until the proxy has started it (the relay does not wait for that).
      () =>
        getRemote(url, 'calls', {}, { token: TEST_TOKEN }).catch(() => ({
          calls: [] as CallRow[],
        })),
      (r) => r.calls.length === 1,
    );
    expect(calls[0]).toMatchObject({ tool_name: 'echo', outcome: 'ok' });
    await client.close();
    expect((await transport.exited).code).toBe(0);
    expect(transport.stderr()).toMatch(
      new RegExp(`started a dashboard at http://(localhost|127\\.0\\.0\\.1):${port} `),
    );
    expect(transport.stderr()).not.toContain('dropped');
  }, 60_000);
});
