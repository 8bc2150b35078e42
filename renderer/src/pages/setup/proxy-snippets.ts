/**
 * Client configuration that wraps an existing stdio server command with this install's
 * `proxy`, for the clients people use. Pure functions of the command line, the dashboard URL
 * and the words that run the CLI (`status.cli`: a client starts it from its own folder, where
 * a clone's `mcpulse-devtools` is not on PATH), so the Setup page and the docs say the same thing.
 */
import { shellWord } from '../../../../src/shared/shell-word.js';

/** Splits a command line on spaces, keeping "quoted parts" together. */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line)) !== null) words.push(m[1] ?? m[2] ?? m[3] ?? '');
  return words;
}

/** A config key for the server: its script's name (`server.js` → `server`), else `my-server`. */
export function serverName(words: string[]): string {
  const script = words.slice(1).find((w) => !w.startsWith('-')) ?? words[0] ?? '';
  const base =
    script
      .split(/[\\/]/)
      .pop()
      ?.replace(/\.[cm]?[jt]s$|\.py$/, '') ?? '';
  const slug = base
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'my-server';
}

/** The proxy's arguments in front of the server command. */
export function proxyArgs(words: string[], endpoint: string): string[] {
  return ['proxy', '--url', endpoint, '--', ...words];
}

/** Pretty JSON with arrays of plain values on one line, as people write `args` by hand. */
const json = (value: unknown): string =>
  JSON.stringify(value, null, 2).replace(
    /\[\n\s+([^[\]{}]*?)\n\s*\]/g,
    (_m, items: string) => `[${items.split(/,\n\s+/).join(', ')}]`,
  );

/** One client's snippet. */
export interface ProxySnippet {
  id: string;
  label: string;
  /** Where it goes. */
  where: string;
  text: string;
}

/**
 * The snippets for a server command line and a dashboard URL; `cli` are the words that run the
 * CLI (`['/usr/bin/node', '/abs/dist/cli/main.js']`, or `['mcpulse-devtools']` on PATH).
 */
export function proxySnippets(
  commandLine: string,
  endpoint: string,
  cli: readonly string[],
): ProxySnippet[] {
  const words = splitCommand(commandLine);
  const name = serverName(words);
  const args = proxyArgs(words, endpoint);
  const entry = { command: cli[0] ?? 'mcpulse-devtools', args: [...cli.slice(1), ...args] };
  const line = (rest: string[]): string => [...cli, ...rest].map(shellWord).join(' ');
  return [
    {
      id: 'claude-desktop',
      label: 'Claude Desktop',
      where: 'claude_desktop_config.json (Settings → Developer → Edit Config)',
      text: json({ mcpServers: { [name]: entry } }),
    },
    {
      id: 'cursor',
      label: 'Cursor',
      where: '.cursor/mcp.json in the project, or ~/.cursor/mcp.json',
      text: json({ mcpServers: { [name]: entry } }),
    },
    {
      id: 'vscode',
      label: 'VS Code',
      where: '.vscode/mcp.json in the workspace',
      text: json({ servers: { [name]: { type: 'stdio', ...entry } } }),
    },
    {
      id: 'claude-code',
      label: 'Claude Code',
      where: 'a terminal in the project',
      text: `claude mcp add ${name} -- ${line(args)}`,
    },
    {
      id: 'http',
      label: 'HTTP server',
      where: 'a terminal, then point the client at http://127.0.0.1:8808/mcp',
      text: line([
        'proxy',
        '--http',
        '--target',
        'http://localhost:3000/mcp',
        '--listen',
        '8808',
        '--url',
        endpoint,
      ]),
    },
  ];
}
