/**
 * The default project key of a proxied server: one key is one MCP server's project, so it is
 * named after the server's own identity — `serverInfo.name` from its `initialize` answer —
 * and, until (or unless) the server says its name, after the package the script belongs to:
 * `node …/server-everything/dist/index.js` is `px_server-everything`, never `px_index`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';

/** `px_` + a name made safe for a key (lower case, `[a-z0-9_.@-]`, at most 80 characters). */
export function keyFromName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/^@[^/]+\//, '')
    .replace(/[^a-z0-9_.@-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `px_${slug || 'server'}`;
}

/** File names that say nothing about which server they are. */
const GENERIC = /^(index|main|server|cli|app|start|run|bin)$/i;

/** The `name` of the nearest package.json at or above `dir`, if any. */
function packageName(dir: string): string | null {
  for (let at = dir; ; at = dirname(at)) {
    const file = resolve(at, 'package.json');
    if (existsSync(file)) {
      try {
        const name = (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name;
        if (typeof name === 'string' && name.trim()) return name.trim();
      } catch {
        // A broken package.json names nothing; look further up.
      }
    }
    if (dirname(at) === at) return null;
  }
}

/**
 * The key to use before (or without) the server's name: `px_` + the script's package name when
 * the command runs a script file (`node dist/index.js`), the script's own name when it is not a
 * generic one, the package for `npx -y pkg` / `uvx tool`, else the command's name.
 */
export function scriptKey(command: string, args: string[], cwd = process.cwd()): string {
  const script = args.find((a) => !a.startsWith('-'));
  if (script !== undefined) {
    const path = isAbsolute(script) ? script : resolve(cwd, script);
    const own = basename(script).replace(/\.[cm]?[jt]s$|\.py$/, '');
    if (/\.[cm]?[jt]s$/.test(script) && existsSync(path)) {
      const pkg = packageName(dirname(path));
      if (pkg && (GENERIC.test(own) || /[\\/](dist|build|lib|bin|src)[\\/]/.test(path)))
        return keyFromName(pkg);
    }
    return keyFromName(own.replace(/@[^@/]*$/, '') || own);
  }
  return keyFromName(basename(command).replace(/\.[cm]?[jt]s$|\.py$/, ''));
}

/** What {@link chooseKey} needs: the explicit key, the fallback, and where to say it. */
export interface KeyChoice {
  key?: string;
  fallbackKey: string;
}

/** Whether a key was already chosen (and said) in this process: once is enough. */
let said = false;

/**
 * Settles the sink's key once the server's `serverInfo.name` is known (or is known to be
 * missing: `null`): `--key` if given, else `px_<server name>`, else the fallback. A key not
 * given with `--key` is said on stderr once, so the user knows which project to open.
 */
export function chooseKey(
  choice: KeyChoice,
  sink: { setKey(key: string): void },
  serverName: string | null,
  stderr: NodeJS.WritableStream = process.stderr,
): void {
  if (choice.key) return sink.setKey(choice.key);
  if (said) return;
  said = true;
  const key = serverName ? keyFromName(serverName) : choice.fallbackKey;
  const why = serverName ? `the server's name '${serverName}'` : 'the server command';
  stderr.write(`mcpulse-devtools proxy: project key ${key} (from ${why}; --key KEY to choose)\n`);
  sink.setKey(key);
}
