/** Tools about what went wrong: per-tool health, retry chains, telemetry the endpoint dropped. */
import { z } from 'zod';
import { callApi } from '../../api/call.js';
import { defineTool } from '../tool.js';
import { chainBrief } from '../views.js';
import { scope } from './scope.js';

/** `tool_health`: per-tool numbers, the totals and the insights. */
export const toolHealth = defineTool({
  name: 'tool_health',
  description:
    'Per-tool health: calls, first-call success, retries, outcomes, error and empty rates, latency p50/p95/p99, average response size, schema size, dead (registered, never called) and unregistered tools; plus totals and insights ranked by severity.',
  inputSchema: {
    ...scope,
    tool: z.string().optional().describe('Only this tool'),
    session: z.string().optional().describe('Only this session'),
  },
  async run(a, stores) {
    const store = stores();
    const { tools: _tools, filter: _f, ...totals } = await callApi(store, 'summary', a);
    const r = await callApi(store, 'tools', a);
    return { totals, tools: r.tools, insights: r.insights };
  },
});

/** `retry_chains`: runs of retried calls, newest first. */
export const retryChains = defineTool({
  name: 'retry_chains',
  description:
    'Retry chains: runs of calls to the same tool in one session, each within 30 s of the previous, where the model changed the arguments and tried again. Resolved when the last call was ok and not empty. Newest first.',
  inputSchema: {
    ...scope,
    session_id: z.string().optional(),
    tool: z.string().optional(),
    resolved: z.boolean().optional().describe('Only resolved (true) or unresolved (false) chains'),
    limit: z.number().int().min(1).max(200).optional().describe('Default 20'),
  },
  async run(a, stores) {
    const { session_id, ...rest } = a;
    const r = await callApi(stores(), 'chains', {
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
  },
});

/** `rejected_items`: what the ingest endpoint refused or dropped, newest first. */
export const rejectedItems = defineTool({
  name: 'rejected_items',
  description:
    'Telemetry the ingest endpoint refused or dropped (production drops these silently), newest first, with the reason as production words it (e.g. "started_at: Invalid datetime") and the item as sent.',
  inputSchema: {
    project: scope.project,
    limit: z.number().int().min(1).max(200).optional().describe('Default 20'),
  },
  async run(a, stores) {
    const { rejections } = await callApi(stores(), 'rejections', {
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
  },
});
