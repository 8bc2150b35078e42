/**
 * The TypeScript SDK fixture server's tools, shared by the stdio server (ts-server.ts) and the
 * Streamable HTTP one (http-server.ts).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** A fresh `McpServer` with the fixture tools registered. */
export function buildFixtureServer(): McpServer {
  const server = new McpServer({ name: 'ts-fixture', version: '1.0.0' });
  const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

  server.registerTool(
    'echo',
    { description: 'Echo the text.', inputSchema: { text: z.string() } },
    async ({ text: t }) => text(t),
  );
  server.registerTool(
    'search',
    { description: 'Search; finds nothing.', inputSchema: { query: z.string() } },
    async () => text('[]'),
  );
  server.registerTool(
    'fail',
    { description: 'Returns an error result.', inputSchema: {} },
    async () => ({ ...text('it failed'), isError: true }),
  );
  server.registerTool('throws', { description: 'Throws.', inputSchema: {} }, async () => {
    throw new Error('handler threw');
  });
  server.registerTool(
    'add',
    {
      description: 'Adds two numbers after a short wait.',
      inputSchema: { a: z.number(), b: z.number() },
    },
    async ({ a, b }) => {
      await new Promise((r) => setTimeout(r, Math.random() * 20));
      return text(String(a + b));
    },
  );
  server.registerTool(
    'slow',
    {
      description: 'Waits, reporting progress.',
      inputSchema: { ms: z.number(), steps: z.number() },
    },
    async ({ ms, steps }, extra) => {
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        await new Promise((r) => setTimeout(r, ms / steps));
        if (token !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: steps },
          });
      }
      return { ...text('done'), structuredContent: { done: true } };
    },
  );
  server.registerTool(
    'big',
    { description: 'Returns `bytes` characters.', inputSchema: { bytes: z.number() } },
    async ({ bytes }) => text('x'.repeat(bytes)),
  );
  server.registerTool(
    'dead_tool',
    { description: 'Never called.', inputSchema: { x: z.string().optional() } },
    async () => text('unreachable'),
  );
  return server;
}
