/**
 * A private network namespace joined to this one by a veth pair, for tests that need a peer
 * that is not this machine's loopback (issue 40). Its addresses are a /30 of 10.233.0.0/16 no
 * interface here uses: the only traffic is between the two ends of the pair, never towards the
 * machine's other addresses or outside. Needs root and `ip` (iproute2).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';

/** Why a namespace cannot be made here, or null when it can. */
export function netnsUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'needs root to create a network namespace';
  const ip = spawnSync('ip', ['-V'], { encoding: 'utf8' });
  if (ip.error || ip.status !== 0) return 'needs `ip` from iproute2';
  return null;
}

/** A namespace with one veth end at `peerAddress`, the other here at `hostAddress`. */
export interface TestNetns {
  name: string;
  /** This side's address, what the namespace connects to. */
  hostAddress: string;
  /** The namespace's own address. */
  peerAddress: string;
  /** Runs `node -e script` inside the namespace; resolves to its stdout. */
  node(script: string, args?: string[]): string;
  remove(): void;
}

const ip = (...args: string[]): string => execFileSync('ip', args, { encoding: 'utf8' });

/** Makes the namespace and the pair; removes whatever it made if a step fails. */
export function createNetns(): TestNetns {
  const id = `${process.pid % 100000}${randomInt(100)}`;
  const name = `mcpt${id}`;
  const hostIf = `mch${id}`.slice(0, 15);
  const peerIf = `mcp${id}`.slice(0, 15);
  const used = ip('-4', '-o', 'addr', 'show');
  let subnet = -1;
  // A /24 no interface here has an address in, so the /30 in it clashes with nothing.
  for (let tries = 0; tries < 50 && subnet < 0; tries++) {
    const s = randomInt(0, 16384) * 4;
    if (!used.includes(`10.233.${Math.floor(s / 256)}.`)) subnet = s;
  }
  if (subnet < 0) throw new Error('no free /30 in 10.233.0.0/16');
  const third = Math.floor(subnet / 256);
  const fourth = subnet % 256;
  const hostAddress = `10.233.${third}.${fourth + 1}`;
  const peerAddress = `10.233.${third}.${fourth + 2}`;
  const remove = (): void => {
    // Deleting the namespace deletes its end of the pair, and with it this end.
    spawnSync('ip', ['netns', 'del', name]);
    spawnSync('ip', ['link', 'del', hostIf]);
  };
  try {
    ip('netns', 'add', name);
    ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', peerIf);
    ip('link', 'set', peerIf, 'netns', name);
    ip('addr', 'add', `${hostAddress}/30`, 'dev', hostIf);
    ip('link', 'set', hostIf, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${peerAddress}/30`, 'dev', peerIf);
    ip('netns', 'exec', name, 'ip', 'link', 'set', peerIf, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  } catch (error) {
    remove();
    throw error;
  }
  return {
    name,
    hostAddress,
    peerAddress,
    node: (script, args = []) =>
      execFileSync('ip', ['netns', 'exec', name, process.execPath, '-e', script, ...args], {
        encoding: 'utf8',
        timeout: 15_000,
      }),
    remove,
  };
}

/**
 * A script for `node -e`: one HTTP request (node:http, which sends the `Host` it is given, as
 * curl -H does), printing `{"status":…,"body":…}`. Arguments: JSON of
 * `{ url, method, headers, body }`.
 */
export const REQUEST_SCRIPT = `
const http = require('node:http');
const o = JSON.parse(process.argv[1]);
const req = http.request(o.url, { method: o.method || 'GET', headers: o.headers || {} }, (res) => {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (c) => (body += c));
  res.on('end', () => process.stdout.write(JSON.stringify({ status: res.statusCode, body })));
});
req.on('error', (e) => process.stdout.write(JSON.stringify({ status: 0, body: e.message })));
req.end(o.body);
`;
