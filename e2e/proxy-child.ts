/**
 * The built `proxy` as a user runs it in front of a server: its stdin and stdout are the
 * client's side of the session. It runs with the dashboard's home, so it finds the owner token
 * in that home's token file itself, as a user's proxy does.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** A running proxy, with what it wrote so far. */
export type ProxyChild = ChildProcessWithoutNullStreams & { out: () => string; err: () => string };

/** Starts `dist/cli/main.js proxy --url URL --key KEY -- ...server` with `HOME` = `home`. */
export function spawnBuiltProxy(
  url: string,
  home: string,
  key: string,
  server: readonly string[],
  env: NodeJS.ProcessEnv = {},
): ProxyChild {
  const child = spawn(
    process.execPath,
    ['dist/cli/main.js', 'proxy', '--url', url, '--key', key, '--', ...server],
    { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env, HOME: home } },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return Object.assign(child, { out: () => out, err: () => err });
}
