/**
 * The smallest stdio MCP server: answers initialize, tools/list and a `ping` tool at once, so a
 * round trip measures the pipes (and the proxy between them), not the server.
 */
let pending = '';
const out = (m: unknown): void => void process.stdout.write(JSON.stringify(m) + '\n');

process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  let nl: number;
  while ((nl = pending.indexOf('\n')) !== -1) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    if (!line.trim()) continue;
    const m = JSON.parse(line) as {
      id?: number;
      method?: string;
      params?: { arguments?: unknown };
    };
    if (m.id === undefined) continue;
    if (m.method === 'initialize')
      out({
        jsonrpc: '2.0',
        id: m.id,
        result: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'trivial', version: '1' },
        },
      });
    else if (m.method === 'tools/list')
      out({
        jsonrpc: '2.0',
        id: m.id,
        result: { tools: [{ name: 'ping', inputSchema: { type: 'object' } }] },
      });
    else
      out({
        jsonrpc: '2.0',
        id: m.id,
        result: { content: [{ type: 'text', text: JSON.stringify(m.params?.arguments ?? {}) }] },
      });
  }
});
