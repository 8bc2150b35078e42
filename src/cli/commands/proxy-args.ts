/**
 * `proxy`'s command line: the proxy's own flags, then the server command after `--` (or from
 * the first word that is not a flag), so the server's flags are never taken for the proxy's.
 */
import { keyFromName, scriptKey } from '../../proxy/project-key.js';
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
  'no-content': { type: 'boolean' },
  'redact-keys': { type: 'string' },
  token: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const TAKES_VALUE = new Set([
  '--url',
  '--key',
  '--client',
  '--db',
  '--target',
  '--listen',
  '--redact-keys',
  '--token',
]);

/** A proxy to run: a stdio server command, or an HTTP target and a local port. */
export interface ProxyRun {
  mode: 'stdio' | 'http';
  url: string;
  /** `--key`: the project key, when given (else the server's name decides, see project-key.ts). */
  key?: string;
  /** The key when the server never says its name: the script's package, or the target host. */
  fallbackKey: string;
  /** Capture message bodies (`--no-content` turns it off). */
  content: boolean;
  /** `--redact-keys`: more key names to redact, beside DEFAULT_SECRET_KEYS. */
  redactKeys: string[];
  client?: string;
  db?: string;
  /** `--token`: the dashboard's owner token, when given (else $MCPULSE_DEVTOOLS_TOKEN, the file). */
  token?: string;
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
 * The key used until the server names itself (see project-key.ts): the script's package or
 * name for a stdio command.
 */
export const defaultKey = scriptKey;

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
  const redactKeys = (values['redact-keys'] ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  if (values['redact-keys'] !== undefined && redactKeys.length === 0)
    throw new UsageError('--redact-keys: expected key names, e.g. --redact-keys session,pin');
  const base = {
    url,
    client: values.client?.trim(),
    db: values.db,
    ...(values.token === undefined ? {} : { token: values.token }),
    key: values.key?.trim(),
    content: values['no-content'] !== true,
    redactKeys,
  };
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
    const fallbackKey = keyFromName(target.host.replace(/[^a-z0-9.-]+/gi, '-'));
    return { mode: 'http', ...base, fallbackKey, command: '', args: [], target, listen };
  }
  if (values.target !== undefined || values.listen !== undefined)
    throw new UsageError('--target and --listen belong to --http mode');
  const [cmd, ...args] = command;
  if (!cmd) throw new UsageError('expected the server command: proxy [options] -- COMMAND [ARGS…]');
  return {
    mode: 'stdio',
    ...base,
    fallbackKey: scriptKey(cmd, args),
    command: cmd,
    args,
    listen: 0,
  };
}
