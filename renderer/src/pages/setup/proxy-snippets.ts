/**
 * Client configuration that wraps an existing stdio server command with
 * `mcpulse-devtools proxy`, for the clients people use. Pure functions of the command line and
 * the dashboard URL, so the Setup page and the docs say the same thing.
 */

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

const shellWord = (w: string): string =>
  /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;

/** One client's snippet. */
export interface ProxySnippet {
  id: string;
  label: string;
  /** Where it goes. */
  where: string;
  text: string;
}

/** The snippets for a server command line and a dashboard URL. */
export function proxySnippets(commandLine: string, endpoint: string): ProxySnippet[] {
  const words = splitCommand(commandLine);
  const name = serverName(words);
  const args = proxyArgs(words, endpoint);
  const entry = { command: 'mcpulse-devtools', args };
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
      text: `claude mcp add ${name} -- mcpulse-devtools ${args.map(shellWord).join(' ')}`,
    },
    {
      id: 'http',
      label: 'HTTP server',
      where: 'a terminal, then point the client at http://127.0.0.1:8808/mcp',
      text: `mcpulse-devtools proxy --http --target http://localhost:3000/mcp --listen 8808 --url ${endpoint}`,
    },
  ];
}
