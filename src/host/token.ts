/**
 * The owner token (issue 40): one random value per install, kept in a 0600 file in the owner's
 * 0700 state folder (`~/.mcpulse-devtools/token`, beside the default database). `serve` makes
 * it on first run; every client reads it, so only this account — and whoever it hands the
 * printed link — can read captured content or clear data. A token file or folder another user
 * owns or could write is refused with one line: a token planted by someone else would let them
 * read what the dashboard shows.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { TOKEN_ENV } from '../shared/owner-token.js';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../store/private-files.js';

/** A token file or folder that cannot be trusted; the message is the whole story. */
export class TokenFileError extends Error {}

/** The owner's state folder: `~/.mcpulse-devtools` (`$HOME` first, as the shell sees it). */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.HOME || homedir(), '.mcpulse-devtools');
}

/** Where the token is kept: `~/.mcpulse-devtools/token`. */
export function tokenPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), 'token');
}

const HOW_TO_BYPASS = 'or pass --token VALUE / set $' + TOKEN_ENV;

/**
 * A token given by hand (`--token`, the environment) must survive a header and a cookie
 * unchanged: printable ASCII without the characters cookies and header lists split on.
 */
export function checkTokenValue(value: string, from: string): string {
  if (!/^[\x21-\x7e]+$/.test(value) || /[;,"\\]/.test(value))
    throw new TokenFileError(
      `${from}: the token must be printable ASCII without spaces, ';', ',', '"' or '\\'`,
    );
  return value;
}

/** Refuses an entry another user owns, or that other users could write (or, for the file, read). */
function refuseUnsafe(path: string, st: Stats, kind: 'folder' | 'file'): void {
  const me = process.getuid?.();
  if (me !== undefined && st.uid !== me)
    throw new TokenFileError(
      `${path} belongs to another user (uid ${st.uid}), so its token cannot be trusted — remove it, ${HOW_TO_BYPASS}`,
    );
  if ((st.mode & 0o022) !== 0)
    throw new TokenFileError(
      `${path} can be changed by other users (mode ${(st.mode & 0o777).toString(8)}), so its token cannot be trusted — ` +
        (kind === 'folder' ? `run chmod 700 ${path}` : `delete it (a new one is made)`) +
        `, ${HOW_TO_BYPASS}`,
    );
  if (kind === 'file' && (st.mode & 0o077) !== 0)
    throw new TokenFileError(
      `${path} can be read by other users (mode ${(st.mode & 0o777).toString(8)}), so its token may be known — delete it (a new one is made), ${HOW_TO_BYPASS}`,
    );
}

/** The state folder, checked; created 0700 when `create`. Null when missing and not created. */
function checkedFolder(env: NodeJS.ProcessEnv, create: boolean): string | null {
  const dir = stateDir(env);
  if (create) mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  let st: Stats;
  try {
    st = statSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (!st.isDirectory()) throw new TokenFileError(`${dir} is not a folder — remove it`);
  refuseUnsafe(dir, st, 'folder');
  // Readable by others (an older 0755 folder): the owner's own, so closing it is safe.
  if ((st.mode & 0o077) !== 0) chmodSync(dir, PRIVATE_FOLDER_MODE);
  return dir;
}

/** Reads and checks the token file at `path`; null when there is none. */
function readTokenFile(path: string): string | null {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  // A symlink could point anywhere another user chose; only a plain file of ours is trusted.
  if (!st.isFile()) throw new TokenFileError(`${path} is not a plain file — remove it`);
  refuseUnsafe(path, st, 'file');
  const value = readFileSync(path, 'utf8').trim();
  if (!value) throw new TokenFileError(`${path} is empty — delete it (a new one is made)`);
  return checkTokenValue(value, path);
}

/**
 * The owner token from the state folder, made (random, 256 bits) on first use. Two processes
 * starting at once agree: the file appears complete or not at all (written aside, then linked
 * into place, which fails if another got there first).
 */
export function ensureOwnerToken(env: NodeJS.ProcessEnv = process.env): string {
  const dir = checkedFolder(env, true)!;
  const path = join(dir, 'token');
  const existing = readTokenFile(path);
  if (existing) return existing;
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(aside, `${randomBytes(32).toString('base64url')}\n`, {
    mode: PRIVATE_FILE_MODE,
    flag: 'wx',
  });
  try {
    linkSync(aside, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(aside);
  }
  return readTokenFile(path)!;
}

/** The owner token if the state folder has one (clients never create it). */
export function readOwnerToken(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = checkedFolder(env, false);
  return (dir && readTokenFile(join(dir, 'token'))) || undefined;
}

/** The token `serve`/`start` use: `--token`, else `$MCPULSE_DEVTOOLS_TOKEN`, else the file's. */
export function serverToken(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  if (flag !== undefined) return checkTokenValue(flag, '--token');
  const fromEnv = env[TOKEN_ENV];
  if (fromEnv) return checkTokenValue(fromEnv, `$${TOKEN_ENV}`);
  return ensureOwnerToken(env);
}

/**
 * The token a client sends: `--token`, else `$MCPULSE_DEVTOOLS_TOKEN`, else the file's;
 * undefined when there is none (the server's 401 then says how to get it).
 */
export function clientToken(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (flag !== undefined) return checkTokenValue(flag, '--token');
  const fromEnv = env[TOKEN_ENV];
  if (fromEnv) return checkTokenValue(fromEnv, `$${TOKEN_ENV}`);
  return readOwnerToken(env);
}
