/**
 * `proxy`'s command line: the proxy's own flags, then the server command after `--` (or from
 * the first word that is not a flag), so the server's flags are never taken for the proxy's.
 */
import { basename } from 'node:path';
import { parseFlags, parsePort } from '../flags.js';
import { UsageError } from '../io.js';
import { parseServerUrl } from './demo-probe.js';

const FLAGS = {
  url: { type: 'string' },
  key: { type: 'string' },
  client: { type: 'string' },
  db: { type: 'string' },
  http: { type: 'boolean' },
  target: { type: 'string' },
  listen: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const TAKES_VALUE = new Set(['--url', '--key', '--client', '--db', '--target', '--listen']);

/** A proxy to run: a stdio server command, or an HTTP target and a local port. */
export interface ProxyRun {
  mode: 'stdio' | 'http';
  url: string;
  key: string;
  client?: string;
  db?: string;
  /** stdio: the server command and its arguments. */
  command: string;
  args: string[];
  /** http: the server's MCP URL and the port to listen on. */
  target?: URL;
  listen: number;
}

/** What `proxy` was asked to do. */
export type ProxyArgs = { mode: 'help' } | ProxyRun;

/** Splits argv into the proxy's flags and the server command. */
function split(argv: string[]): { flags: string[]; command: string[] } {
  const dashes = argv.indexOf('--');
  if (dashes !== -1) return { flags: argv.slice(0, dashes), command: argv.slice(dashes + 1) };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('-')) return { flags: argv.slice(0, i), command: argv.slice(i) };
    if (TAKES_VALUE.has(a)) i++;
  }
  return { flags: argv, command: [] };
}

/**
 * The default key names the server, so each wrapped server is its own project (one key is one
 * MCP server in MCPulse, and the dashboard names a project by its key's first 12 characters):
 * `px_` + the script's name when the command runs one (`node server.js`, `npx -y pkg`,
 * `uvx tool`), else the command's.
 */
export function defaultKey(command: string, args: string[]): string {
  const script = args.find((a) => !a.startsWith('-'));
  const name = basename(script ?? command).replace(/\.[cm]?[jt]s$|\.py$/, '');
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9_.@-]+/g, '-')
    .slice(0, 80);
  return `px_${slug || 'server'}`;
}

/** Parses `proxy`'s argv; throws {@link UsageError} for anything wrong. */
export function parseProxyArgs(argv: string[], env: NodeJS.ProcessEnv): ProxyArgs {
  const { flags, command } = split(argv);
  const { values } = parseFlags(flags, FLAGS);
  if (values.help) return { mode: 'help' };
  const url = parseServerUrl(values.url, env);
  if (values.key !== undefined && values.key.trim() === '')
    throw new UsageError('--key: an empty key would turn telemetry off');
  if (values.client !== undefined && values.client.trim() === '')
    throw new UsageError('--client: expected a name');
  const base = { url, client: values.client?.trim(), db: values.db };
  if (values.http) {
    if (command.length > 0)
      throw new UsageError(
        `--http relays to a running server (--target URL); it does not start '${command[0]}'`,
      );
    if (!values.target) throw new UsageError('--http needs --target URL (the server’s MCP URL)');
    let target: URL;
    try {
      target = new URL(values.target);
    } catch {
      throw new UsageError(
        `--target: expected http(s)://host:port/path, received '${values.target}'`,
      );
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      throw new UsageError(`--target: expected an http(s) URL, received '${values.target}'`);
    if (values.listen === undefined) throw new UsageError('--http needs --listen PORT');
    const listen = parsePort(values.listen, 0);
    const key = values.key?.trim() ?? `px_${target.host.replace(/[^a-z0-9.-]+/gi, '-')}`;
    return { mode: 'http', ...base, key, command: '', args: [], target, listen };
  }
  if (values.target !== undefined || values.listen !== undefined)
    throw new UsageError('--target and --listen belong to --http mode');
  const [cmd, ...args] = command;
  if (!cmd) throw new UsageError('expected the server command: proxy [options] -- COMMAND [ARGS…]');
  return {
    mode: 'stdio',
    ...base,
    key: values.key?.trim() ?? defaultKey(cmd, args),
    command: cmd,
    args,
    listen: 0,
  };
}
