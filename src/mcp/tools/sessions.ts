/** Tools about sessions: the recent ones, and every call of one. */
import { z } from 'zod';
import { ApiError, callApi } from '../../api/call.js';
import type { ApiParams } from '../../shared/api-routes.js';
import type { ReadStore } from '../../store/index.js';
import { defineTool } from '../tool.js';
import { callBrief, chainBrief } from '../views.js';
import { scope } from './scope.js';

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

/** `list_sessions`: recent sessions, newest first. */
export const listSessions = defineTool({
  name: 'list_sessions',
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
  async run(a, stores) {
    const r = await callApi(stores(), 'sessions', { ...a, limit: a.limit ?? 20 });
    return { total: r.total, sessions: r.sessions };
  },
});

/** `session_calls`: one session's calls in order, with its totals, startups and chains. */
export const sessionCalls = defineTool({
  name: 'session_calls',
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
  async run(a, stores) {
    const store = stores();
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
  },
});
