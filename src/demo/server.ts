/**
 * The demo MCP server: an issue tracker whose tools behave the way real tools do — fast, slow,
 * empty-handed, failing politely, crashing, strict about their input, one that pages, one that
 * returns far too much, and one nobody ever calls.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { activityOf, ISSUES, PROJECTS, searchIssues } from './data.js';

/** How the demo server behaves. */
export interface DemoServerOptions {
  /** How long `generate_report` takes. The real demo uses 2.4 s; tests compress it. */
  slowMs: number;
}

const ACTIVITY_PAGE = 5;

const text = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The names of every tool the demo registers, in registration order. */
export const DEMO_TOOLS = [
  'search_issues',
  'get_issue',
  'read_activity',
  'generate_report',
  'run_query',
  'sync_calendar',
  'export_board',
  'list_projects',
  'archive_project',
] as const;

/** Builds one server instance (one per client connection, as the SDK requires). */
export function createDemoServer(
  options: DemoServerOptions,
  state = new Map<string, number>(),
): McpServer {
  const server = new McpServer({ name: 'acme-tracker', version: '1.4.0' });
  const project = z.enum(PROJECTS);

  // Fast, and empty-handed when nothing matches: `[]` is how most tools say "found nothing".
  server.registerTool(
    'search_issues',
    {
      description: 'Full-text search over issue titles and labels. Every word must match.',
      inputSchema: {
        query: z.string().min(2).describe('Words to look for'),
        limit: z.number().int().min(1).max(50).optional(),
      },
    },
    async ({ query, limit }) => text(searchIssues(query, limit ?? 10)),
  );

  // Strict input: ids look like ISS-42, and a bare number fails validation before the handler.
  server.registerTool(
    'get_issue',
    {
      description: 'One issue by id.',
      inputSchema: { id: z.string().regex(/^ISS-\d+$/, 'expected an id like ISS-42') },
    },
    async ({ id }) => {
      const issue = ISSUES.find((i) => i.id === id);
      return issue
        ? text(issue)
        : { isError: true, content: [{ type: 'text', text: `no issue ${id}` }] };
    },
  );

  // Pages with the same arguments: each call returns the next five events, then `[]`.
  server.registerTool(
    'read_activity',
    {
      description: 'The activity feed of an issue, five events per call; call again for more.',
      inputSchema: { issue: z.string().regex(/^ISS-\d+$/) },
    },
    async ({ issue }) => {
      const all = activityOf(issue);
      const cursor = state.get(issue) ?? 0;
      const page = all.slice(cursor, cursor + ACTIVITY_PAGE);
      state.set(issue, page.length === 0 ? 0 : cursor + ACTIVITY_PAGE);
      return text(page);
    },
  );

  // Slow: a report that aggregates a lot.
  server.registerTool(
    'generate_report',
    {
      description: 'Builds a status report for a project and period. Takes a few seconds.',
      inputSchema: { project, period: z.enum(['week', 'month', 'quarter']) },
    },
    async ({ project: p, period }) => {
      await sleep(options.slowMs);
      const issues = ISSUES.filter((i) => i.project === p);
      const open = issues.filter((i) => i.status !== 'closed').length;
      return text(
        `${p}, last ${period}: ${issues.length} issues, ${open} still open, ${issues.length - open} closed.`,
      );
    },
  );

  // A tool error: the tool ran and answered isError, the way a tool reports a bad query.
  server.registerTool(
    'run_query',
    {
      description: 'Runs a read-only SQL query over the issues table.',
      inputSchema: { sql: z.string().min(1) },
    },
    async ({ sql }) => {
      if (!/^\s*select\s/i.test(sql)) {
        const near = sql.trim().split(/\s+/)[0] ?? '';
        return {
          isError: true,
          content: [{ type: 'text', text: `syntax error at or near "${near}"` }],
        };
      }
      return text([{ count: ISSUES.length }]);
    },
  );

  // A crash: an upstream dependency is down and the handler throws.
  server.registerTool(
    'sync_calendar',
    { description: 'Pulls due dates from the team calendar.', inputSchema: {} },
    async () => {
      throw new Error('calendar upstream refused the connection (ECONNREFUSED 10.0.4.2:443)');
    },
  );

  // Heavy: dumps the whole board, far more than a model needs in its context window.
  server.registerTool(
    'export_board',
    {
      description: 'Exports a project board with every issue and its full history.',
      inputSchema: { project },
    },
    async ({ project: p }) =>
      text(
        ISSUES.filter((i) => i.project === p).map((i) => ({
          ...i,
          history: activityOf(i.id),
          body: `${i.title}. `.repeat(40),
        })),
      ),
  );

  server.registerTool(
    'list_projects',
    { description: 'Every project with its open issue count.', inputSchema: {} },
    async () =>
      text(
        PROJECTS.map((p) => ({
          project: p,
          open: ISSUES.filter((i) => i.project === p && i.status !== 'closed').length,
        })),
      ),
  );

  // Registered and never called: the dead tool whose schema still costs context on every turn.
  server.registerTool(
    'archive_project',
    {
      description: 'Archives a project and every issue in it. Irreversible; asks for confirmation.',
      inputSchema: {
        project,
        confirm: z.literal(true).describe('Must be true'),
        reason: z.string().max(500).optional(),
      },
    },
    async ({ project: p }) => text(`archived ${p}`),
  );

  return server;
}
