/**
 * `mcpulse-devtools mcp`: an MCP server over the telemetry database, so the coding assistant
 * helping an author build their MCP server can ask what went wrong in the last session. Every
 * answer comes from the dashboard's own API handlers over the database file (`callApi`,
 * src/api/call.ts), so the assistant and the dashboard always agree.
 *
 * This module is the wiring only: the tools are declared in ./tools/, run and turned into tool
 * results by ./tool.ts, and trimmed for a model to read by ./views.ts.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ZodRawShapeCompat } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { runTool, type DataTool, type StoreProvider } from './tool.js';
import { DATA_TOOLS } from './tools/index.js';

export type { StoreProvider } from './tool.js';
export type { ToolAnswer, ToolName } from './tools/index.js';

const INSTRUCTIONS =
  'Telemetry of the MCP server being developed, as recorded by MCPulse Devtools. Start with ' +
  'list_sessions or session_calls (no arguments = the latest session) to see what went wrong; ' +
  'tool_health for per-tool first-call success, errors, latency and sizes; retry_chains for ' +
  'calls the model had to retry; rejected_items for telemetry the endpoint dropped; ' +
  'hash_arguments to find calls made with given arguments.';

/**
 * Registers one tool; `stores` is called per tool call that needs data. The SDK validates the
 * arguments against `inputSchema` before the callback runs, so `run` sees its own shape.
 */
function register(
  server: McpServer,
  stores: StoreProvider,
  tool: DataTool<ZodRawShapeCompat, unknown>,
): void {
  server.registerTool(
    tool.name,
    { description: tool.description, inputSchema: tool.inputSchema },
    (args) => runTool(tool, args, stores),
  );
}

/** Builds the server; `stores` is called per tool call (the file may appear later). */
export function createDataServer(stores: StoreProvider, version: string): McpServer {
  const server = new McpServer(
    { name: 'mcpulse-devtools', version },
    { instructions: INSTRUCTIONS },
  );
  for (const tool of Object.values(DATA_TOOLS)) register(server, stores, tool);
  return server;
}
