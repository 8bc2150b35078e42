/**
 * `proxy`'s command line: the proxy's own flags, then the server command after `--` (or from
 * the first word that is not a flag), so the server's flags are never taken for the proxy's.
 */
import { keyFromName, scriptKey } from '../../proxy/project-key.js';
import { Redactor, RuleError } from '../../redact/index.js';
import type { UserRedactionRules } from '../../shared/redaction.js';
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
  'redact-keys': { type: 'string', multiple: true },
  redact: { type: 'string', multiple: true },
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
  '--redact',
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
  /**
   * `--redact` (and its alias `--redact-keys`): more key names, and patterns (`/regex/flags`),
   * redacted beside the built-in rules — checked here, so a bad regex is a usage error.
   */
  redact: UserRedactionRules;
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
  const redact = redactRules(values.redact ?? [], values['redact-keys'] ?? []);
  const base = {
    url,
    client: values.client?.trim(),
    db: values.db,
    ...(values.token === undefined ? {} : { token: values.token }),
    key: values.key?.trim(),
    content: values['no-content'] !== true,
    redact,
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

/**
 * `--redact RULE` (repeatable; RULE is a key name, several comma-separated, or a pattern
 * written `/regex/flags`) and `--redact-keys a,b` (key names only; kept as an alias).
 */
function redactRules(redact: string[], keyLists: string[]): UserRedactionRules {
  const rules: UserRedactionRules = { keys: [], patterns: [] };
  for (const value of redact) {
    if (/^\/.+\/[a-z]*$/s.test(value)) rules.patterns.push(value);
    else rules.keys.push(...names(value, '--redact', 'session,pin or --redact /pin-\\d+/'));
  }
  for (const list of keyLists) rules.keys.push(...names(list, '--redact-keys', 'session,pin'));
  try {
    new Redactor(rules);
  } catch (error) {
    if (error instanceof RuleError) throw new UsageError(`--redact: ${error.message}`);
    throw error;
  }
  return rules;
}

function names(list: string, flag: string, example: string): string[] {
  const keys = list
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  if (keys.length === 0)
    throw new UsageError(`${flag}: expected key names, e.g. ${flag} ${example}`);
  return keys;
}
