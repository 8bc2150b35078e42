/**
 * The hand-off at exit: posts the proxy could not deliver before it had to exit (the client was
 * waiting on its exit, the dashboard was slow, down or hanging) are written to a spool file and
 * posted by a detached child process that outlives the proxy. If the dashboard stays away past
 * the poster's deadline, the file stays, and the next proxy with the same key adopts it.
 *
 * The key is never written down: the file carries its SHA-256 (to match a later proxy's key),
 * and the poster gets the key itself through its environment. Files and their folder are the
 * user's only (0600 / 0700): they hold message bodies.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One request to replay: a path on the dashboard and its JSON body. */
export interface SpooledPost {
  path: string;
  body: string;
}

/** A spool file's content. */
export interface SpoolFile {
  v: 1;
  endpoint: string;
  key_sha256: string;
  posts: SpooledPost[];
}

/** A status that retrying the same request cannot change (the sink and the poster agree). */
export const isFinalRefusal = (status: number): boolean =>
  status >= 400 && status < 500 && status !== 408 && status !== 429;

/** The environment variable the poster reads its key from. */
export const SPOOL_KEY_ENV = 'MCPULSE_PROXY_SPOOL_KEY';

/** The spool folder: `$MCPULSE_DEVTOOLS_SPOOL_DIR`, or one under the system's temp folder. */
export function spoolDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.MCPULSE_DEVTOOLS_SPOOL_DIR || join(tmpdir(), 'mcpulse-devtools-proxy-spool');
}

/** The SHA-256 of a key, hex: how a spool file names its key without holding it. */
export const keyDigest = (key: string): string => createHash('sha256').update(key).digest('hex');

// From source (tests, benches) the poster is a .ts file, run through tsx like the rest.
const POSTER = new URL('./spool-poster.js', import.meta.url);
const FROM_SOURCE = extname(fileURLToPath(import.meta.url)) === '.ts';

/** Starts a detached poster for `file`; it outlives this process. Never throws. */
export function startPoster(file: string, key: string, env: NodeJS.ProcessEnv = process.env): void {
  const entry = fileURLToPath(FROM_SOURCE ? POSTER.href.replace(/\.js$/, '.ts') : POSTER);
  const args = FROM_SOURCE ? ['--import', 'tsx', entry, file] : [entry, file];
  try {
    const child = spawn(process.execPath, args, {
      detached: true,
      stdio: 'ignore',
      env: { ...env, [SPOOL_KEY_ENV]: key },
    });
    child.on('error', () => {});
    child.unref();
  } catch {
    // The file stays; the next proxy with this key adopts it.
  }
}

/**
 * Writes `posts` to a new spool file (atomically: a temp name, then the final one) and starts
 * its poster. Returns the file, or throws if it cannot be written (the caller counts the loss).
 */
export function handOff(
  endpoint: string,
  key: string,
  posts: SpooledPost[],
  env: NodeJS.ProcessEnv = process.env,
): string {
  const dir = spoolDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = `proxy-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const file = join(dir, `${name}.json`);
  const content: SpoolFile = { v: 1, endpoint, key_sha256: keyDigest(key), posts };
  writeFileSync(`${file}.tmp`, JSON.stringify(content), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
  startPoster(file, key, env);
  return file;
}

/** Whether process `pid` still runs (signal 0 only asks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Files a poster left behind (it gave up: the dashboard stayed away past its deadline; or it
 * died holding its claim) for this key and endpoint, older than `minAgeMs`; each gets a new poster. Returns how many.
 * Never throws.
 */
export function adoptLeftovers(
  endpoint: string,
  key: string,
  env: NodeJS.ProcessEnv = process.env,
  minAgeMs = 1000,
): number {
  let adopted = 0;
  try {
    const dir = spoolDir(env);
    const digest = keyDigest(key);
    for (let name of readdirSync(dir)) {
      // A claim whose poster died (killed, or the machine went down) is free again.
      const claim = /^(.+\.json)\.sending-(\d+)$/.exec(name);
      if (claim && !alive(Number(claim[2]))) {
        try {
          renameSync(join(dir, name), join(dir, claim[1]!));
          name = claim[1]!;
        } catch {
          continue;
        }
      }
      if (!name.endsWith('.json')) continue;
      const file = join(dir, name);
      try {
        if (Date.now() - statSync(file).mtimeMs < minAgeMs) continue;
        const spool = JSON.parse(readFileSync(file, 'utf8')) as SpoolFile;
        if (spool.key_sha256 !== digest || spool.endpoint !== endpoint) continue;
        startPoster(file, key, env);
        adopted++;
      } catch {
        // Someone else's, or half written: not ours to post.
      }
    }
  } catch {
    // No spool folder yet.
  }
  return adopted;
}
