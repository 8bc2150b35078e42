/**
 * A trivial MCP server on the real TypeScript SDK: one `ping` tool that answers at once.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'trivial-sdk', version: '1.0.0' });
server.registerTool(
  'ping',
  { description: 'Answers at once.', inputSchema: { i: z.number(), q: z.string() } },
  async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
);
await server.connect(new StdioServerTransport());
