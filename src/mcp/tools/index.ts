/**
 * The MCP server's tools by name, and what each answers — derived from the definitions, so a
 * client (or a test) reads a tool's answer with the type the tool actually returns.
 */
import { hashArguments } from './hash.js';
import { rejectedItems, retryChains, toolHealth } from './health.js';
import { listProjects } from './projects.js';
import { listSessions, sessionCalls } from './sessions.js';

/** Every tool, in the order a client lists them. */
export const DATA_TOOLS = {
  list_sessions: listSessions,
  session_calls: sessionCalls,
  tool_health: toolHealth,
  retry_chains: retryChains,
  list_projects: listProjects,
  rejected_items: rejectedItems,
  hash_arguments: hashArguments,
} as const;

/** A tool's name. */
export type ToolName = keyof typeof DATA_TOOLS;

/** What tool `K` answers (the JSON in its text content). */
export type ToolAnswer = {
  [K in ToolName]: Awaited<ReturnType<(typeof DATA_TOOLS)[K]['run']>>;
};
