/**
 * The client config the Setup page offers: valid JSON for each JSON client, the proxy in front
 * of exactly the typed command, and a shell line Claude Code accepts.
 */
import { describe, expect, it } from 'vitest';
import {
  proxySnippets,
  serverName,
  splitCommand,
} from '../../renderer/src/pages/setup/proxy-snippets.js';
import { parseProxyArgs } from '../../src/cli/commands/proxy-args.js';

const URL = 'http://localhost:7857';

describe('proxy snippets', () => {
  it('splits a command line, keeping quoted parts together', () => {
    expect(splitCommand(`uvx "my tool" --dir '/a b' -v`)).toEqual([
      'uvx',
      'my tool',
      '--dir',
      '/a b',
      '-v',
    ]);
    expect(serverName(splitCommand('npx -y @modelcontextprotocol/server-everything'))).toBe(
      'server-everything',
    );
    expect(serverName([])).toBe('my-server');
  });

  it('gives JSON the clients read, whose args the proxy parses back to the same command', () => {
    const snippets = proxySnippets('python3 /srv/my server.py --port 3', URL, ['mcpulse-devtools']);
    const byId = Object.fromEntries(snippets.map((s) => [s.id, s]));
    for (const id of ['claude-desktop', 'cursor']) {
      const config = JSON.parse(byId[id]!.text) as {
        mcpServers: Record<string, { command: string; args: string[] }>;
      };
      const entry = Object.values(config.mcpServers)[0]!;
      expect(entry.command).toBe('mcpulse-devtools');
      expect(parseProxyArgs(entry.args.slice(1), {})).toMatchObject({
        mode: 'stdio',
        url: URL,
        command: 'python3',
        args: ['/srv/my', 'server.py', '--port', '3'],
      });
    }
    const vscode = JSON.parse(byId.vscode!.text) as { servers: Record<string, { type: string }> };
    expect(Object.values(vscode.servers)[0]!.type).toBe('stdio');
    // Arrays of plain values stay on one line.
    expect(byId['claude-desktop']!.text).toContain(
      '"args": ["proxy", "--url", "http://localhost:7857", "--", ',
    );
    expect(byId['claude-code']!.text).toBe(
      `claude mcp add my -- mcpulse-devtools proxy --url ${URL} -- python3 /srv/my server.py --port 3`,
    );
  });

  it('quotes shell words that need it', () => {
    const code = proxySnippets(`node "/path with space/s.js"`, URL, ['mcpulse-devtools']).find(
      (s) => s.id === 'claude-code',
    )!;
    expect(code.text).toBe(
      `claude mcp add s -- mcpulse-devtools proxy --url ${URL} -- node '/path with space/s.js'`,
    );
  });

  it("name a clone's CLI by full paths, which the clients run from their own folder", () => {
    const cli = ['/usr/bin/node', '/home/me/my checkout/dist/cli/main.js'];
    const snippets = proxySnippets('node s.js', URL, cli);
    const desktop = JSON.parse(snippets.find((s) => s.id === 'claude-desktop')!.text) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    expect(desktop.mcpServers.s).toEqual({
      command: '/usr/bin/node',
      args: [cli[1], 'proxy', '--url', URL, '--', 'node', 's.js'],
    });
    expect(snippets.find((s) => s.id === 'claude-code')!.text).toBe(
      `claude mcp add s -- /usr/bin/node '/home/me/my checkout/dist/cli/main.js' proxy --url ${URL} -- node s.js`,
    );
    expect(snippets.find((s) => s.id === 'http')!.text).toMatch(
      /^\/usr\/bin\/node '\/home\/me\/my checkout\/dist\/cli\/main\.js' proxy --http /,
    );
  });
});
