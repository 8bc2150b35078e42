/**
 * `mcpulse-devtools mcp`: an MCP server over the telemetry database, so the coding assistant
 * helping an author build their MCP server can ask what went wrong in the last session. Every
 * answer comes from the dashboard's own API handlers over the database file (`callApi`,
 * src/api/call.ts), so the assistant and the dashboard always agree.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { argsHash, canonicalOrNull, UNHASHABLE } from '../canonical/node.js';
import type { ReadStore } from '../store/index.js';
import { ApiError, callApi } from '../api/call.js';
import type { ApiParams } from '../shared/api-routes.js';
import { asError, asText, callBrief, chainBrief } from './views.js';

/** Opens the database on demand; throws an Error whose message the model can be shown. */
export type StoreProvider = () => ReadStore;

const scope = {
  project: z
    .string()
    .optional()
    .describe(
      "Project: its ref (12 hex of the key's SHA-256, from /api/projects), the key, or a key prefix only one project has",
    ),
  from: z.string().optional().describe('Only calls that started at or after this ISO 8601 time'),
  to: z.string().optional().describe('Only calls that started before this ISO 8601 time'),
  client: z.string().optional().describe('Only this MCP client (clientInfo.name)'),
};

type Result = ReturnType<typeof asText> | ReturnType<typeof asError>;

/** Runs `fn` against the store, turning API and database errors into tool errors. */
async function guarded(
  stores: StoreProvider,
  fn: (store: ReadStore) => Promise<unknown>,
): Promise<Result> {
  try {
    return asText(await fn(stores()));
  } catch (error) {
    if (error instanceof ApiError) return asError(error.message);
    return asError(error instanceof Error ? error.message : String(error));
  }
}

/** The latest session in scope, for tools whose session is optional. */
async function latestSession(store: ReadStore, query: ApiParams): Promise<string> {
  const { sessions } = await callApi(store, 'sessions', {
    ...query,
    limit: 1,
    sort: 'last_seen',
    order: 'desc',
  });
  const id = sessions[0]?.id;
  if (!id) throw new ApiError(404, 'no sessions recorded yet (in this scope)');
  return id;
}

/** Builds the server; `stores` is called per tool call (the file may appear later). */
export function createDataServer(stores: StoreProvider, version: string): McpServer {
  const server = new McpServer(
    { name: 'mcpulse-devtools', version },
    {
      instructions:
        'Telemetry of the MCP server being developed, as recorded by MCPulse Devtools. Start with ' +
        'list_sessions or session_calls (no arguments = the latest session) to see what went wrong; ' +
        'tool_health for per-tool first-call success, errors, latency and sizes; retry_chains for ' +
        'calls the model had to retry; rejected_items for telemetry the endpoint dropped; ' +
        'hash_arguments to find calls made with given arguments.',
    },
  );

  server.registerTool(
    'list_sessions',
    {
      description:
        'Recent sessions (one per server process), newest first: clients, calls, outcome counts, first-call success, retries, retry chains, duration.',
      inputSchema: {
        ...scope,
        tool: z.string().optional().describe('Only sessions that called this tool'),
        sort: z
          .enum([
            'last_seen',
            'first_seen',
            'calls',
            'first_call_success',
            'retries',
            'chains',
            'errors',
          ])
          .optional(),
        limit: z.number().int().min(1).max(200).optional().describe('Default 20'),
      },
    },
    (a) =>
      guarded(stores, async (store) => {
        const r = await callApi(store, 'sessions', {
          ...a,
          limit: a.limit ?? 20,
        });
        return { total: r.total, sessions: r.sessions };
      }),
  );

  server.registerTool(
    'session_calls',
    {
      description:
        'Every call of one session in order, each with its outcome (ok, empty, bad_args, tool_error, crashed), duration, size, args_hash, whether it was a first-call success or retried, and why. Also the session totals, its startups and retry chains. Without session_id: the latest session.',
      inputSchema: {
        session_id: z.string().optional().describe('Default: the most recent session'),
        project: scope.project,
        limit: z
          .number()
          .int()
          .min(1)
          .max(2000)
          .optional()
          .describe('At most this many calls, from the start (default 500)'),
      },
    },
    (a) =>
      guarded(stores, async (store) => {
        const id = a.session_id ?? (await latestSession(store, { project: a.project }));
        const d = await callApi(store, 'session', { id, project: a.project });
        const limit = a.limit ?? 500;
        return {
          session: d.session,
          startups: d.startups.map((s) => ({
            client: s.client_name,
            tools: s.tools.length,
            schema_bytes: s.schema_bytes,
          })),
          chains: d.chains.map(chainBrief),
          calls: d.calls.slice(0, limit).map(callBrief),
          ...(d.calls.length > limit
            ? { truncated: `${d.calls.length - limit} more calls not shown` }
            : {}),
        };
      }),
  );

  server.registerTool(
    'tool_health',
    {
      description:
        'Per-tool health: calls, first-call success, retries, outcomes, error and empty rates, latency p50/p95/p99, average response size, schema size, dead (registered, never called) and unregistered tools; plus totals and insights ranked by severity.',
      inputSchema: {
        ...scope,
        tool: z.string().optional().describe('Only this tool'),
        session: z.string().optional().describe('Only this session'),
      },
    },
    (a) =>
      guarded(stores, async (store) => {
        const { tools: _tools, filter: _f, ...totals } = await callApi(store, 'summary', a);
        const r = await callApi(store, 'tools', a);
        return { totals, tools: r.tools, insights: r.insights };
      }),
  );

  server.registerTool(
    'retry_chains',
    {
      description:
        'Retry chains: runs of calls to the same tool in one session, each within 30 s of the previous, where the model changed the arguments and tried again. Resolved when the last call was ok and not empty. Newest first.',
      inputSchema: {
        ...scope,
        session_id: z.string().optional(),
        tool: z.string().optional(),
        resolved: z
          .boolean()
          .optional()
          .describe('Only resolved (true) or unresolved (false) chains'),
        limit: z.number().int().min(1).max(200).optional().describe('Default 20'),
      },
    },
    (a) =>
      guarded(stores, async (store) => {
        const { session_id, ...rest } = a;
        const r = await callApi(store, 'chains', {
          ...rest,
          session: session_id,
          limit: a.limit ?? 20,
        });
        return {
          total: r.total,
          resolved: r.resolved,
          unresolved: r.unresolved,
          by_tool: r.by_tool,
          chains: r.chains.map(chainBrief),
        };
      }),
  );

  server.registerTool(
    'list_projects',
    {
      description:
        "The projects (one per ingest key) with their calls and sessions. Select one by its ref (12 hex of the key's SHA-256) in every other tool's project argument; the key prefix is only a label, and warnings name prefixes that several keys share.",
      inputSchema: {},
    },
    () => guarded(stores, (store) => callApi(store, 'projects')),
  );

  server.registerTool(
    'rejected_items',
    {
      description:
        'Telemetry the ingest endpoint refused or dropped (production drops these silently), newest first, with the reason as production words it (e.g. "started_at: Invalid datetime") and the item as sent.',
      inputSchema: {
        project: scope.project,
        limit: z.number().int().min(1).max(200).optional().describe('Default 20'),
      },
    },
    (a) =>
      guarded(stores, async (store) => {
        const { rejections } = await callApi(store, 'rejections', {
          project: a.project,
          limit: a.limit ?? 20,
        });
        return {
          rejections: rejections.map((r) => ({
            received_at: new Date(r.received_ms).toISOString(),
            key_prefix: r.key_prefix,
            item_index: r.item_index,
            reason: r.reason,
            item: r.item,
            truncated: r.truncated,
          })),
        };
      }),
  );

  server.registerTool(
    'hash_arguments',
    {
      description:
        'The args_hash MCPulse SDKs send for given tool-call arguments (first 12 hex of SHA-256 of the RFC 8785 canonical JSON), with the canonical form — to find calls made with these arguments.',
      inputSchema: {
        arguments: z
          .unknown()
          .optional()
          .describe('The arguments as JSON (an object, usually); omit for absent arguments'),
        json: z.string().optional().describe('Or: the arguments as JSON text'),
      },
    },
    async (a) => {
      let value: unknown = a.arguments;
      if (a.json !== undefined) {
        try {
          value = JSON.parse(a.json);
        } catch (error) {
          return asError(`json is not valid JSON: ${(error as Error).message}`);
        }
      }
      const canonical = canonicalOrNull(value === undefined ? {} : value);
      const hash = argsHash(value);
      return asText({ args_hash: hash, canonical, unhashable: hash === UNHASHABLE });
    },
  );

  return server;
}
