/** The `/api/summary` body and the cost block of a view. */
import type { OutcomeCounts } from '../../shared/outcomes.js';
import {
  avgResponse,
  emptyRate,
  errorRate,
  errorsOf,
  firstCallSuccessOf,
  totalStats,
  type FirstCallSuccess,
  type StatRow,
  type Stats,
} from '../aggregate.js';
import { costUsd, tokensOf } from '../sizes.js';
import { latencySummary, type LatencySummary, type Percentiles } from './latency-summary.js';
import {
  buildToolSummaries,
  insightsOf,
  registeredByName,
  type ToolSummary,
} from './tool-summaries.js';

/** Tokens and cost of a view: responses, plus each session's schema loaded once. */
export interface CostSummary {
  usd_per_million_tokens: number;
  response_units: number;
  avg_response_units: number | null;
  response_tokens: number;
  response_cost_usd: number;
  /** Sum over sessions of their latest startup's total schema size. */
  schema_units: number;
  schema_tokens: number;
  schema_cost_usd: number;
  tokens: number;
  cost_usd: number;
  sessions: number;
  cost_per_session_usd: number | null;
}

/** The cost block of a view from its stats and the schema its sessions loaded. */
export function costOf(
  s: Stats,
  schema: { sessions: number; schema_bytes: number },
  usdPerMillion: number,
): CostSummary {
  const responseCost = costUsd(s.response_units, usdPerMillion);
  const schemaCost = costUsd(schema.schema_bytes, usdPerMillion);
  return {
    usd_per_million_tokens: usdPerMillion,
    response_units: s.response_units,
    avg_response_units: avgResponse(s),
    response_tokens: tokensOf(s.response_units),
    response_cost_usd: responseCost,
    schema_units: schema.schema_bytes,
    schema_tokens: tokensOf(schema.schema_bytes),
    schema_cost_usd: schemaCost,
    tokens: tokensOf(s.response_units + schema.schema_bytes),
    cost_usd: responseCost + schemaCost,
    sessions: schema.sessions,
    cost_per_session_usd:
      schema.sessions > 0 ? (responseCost + schemaCost) / schema.sessions : null,
  };
}

/** What `/api/summary` returns (without the echoed filter). */
export interface Summary {
  calls: number;
  sessions: number;
  retries: number;
  repeats: number;
  unknown_links: number;
  retry_chains: number;
  first_call_success: FirstCallSuccess;
  outcomes: OutcomeCounts;
  errors: number;
  error_rate: number | null;
  empty_rate: number | null;
  latency: LatencySummary;
  cost: CostSummary;
  registered_tools: number;
  /** Total schema size of the registered tools (latest startup per project). */
  schema_bytes: number;
  dead_tools: number;
  unregistered_tools: number;
  clients: number;
  insights: { high: number; medium: number; low: number };
  tools: ToolSummary[];
}

/** The `/api/summary` body. */
export function buildSummary(input: {
  stats: readonly StatRow[];
  percentiles: { overall: Percentiles; byTool: ReadonlyMap<string, Percentiles> };
  registered: readonly { name: string; schema_bytes: number; startup_id: number }[];
  sessions: number;
  schema: { sessions: number; schema_bytes: number };
  usdPerMillion: number;
  onlyTool?: string;
}): Summary {
  const { tools, stats } = buildToolSummaries(input);
  const s = totalStats(input.stats);
  const insights = insightsOf(tools, stats);
  const reg = registeredByName(input.registered);
  const clients = new Set(input.stats.filter((r) => r.calls > 0).map((r) => r.client));
  return {
    calls: s.calls,
    sessions: input.sessions,
    retries: s.retries,
    repeats: s.repeats,
    unknown_links: s.unknown_links,
    retry_chains: s.retry_chains,
    first_call_success: firstCallSuccessOf(s),
    outcomes: s.outcomes,
    errors: errorsOf(s),
    error_rate: errorRate(s),
    empty_rate: emptyRate(s),
    latency: latencySummary(s, input.percentiles.overall),
    cost: costOf(s, input.schema, input.usdPerMillion),
    registered_tools: [...reg.keys()].filter(
      (n) => input.onlyTool === undefined || n === input.onlyTool,
    ).length,
    schema_bytes: [...reg.entries()]
      .filter(([n]) => input.onlyTool === undefined || n === input.onlyTool)
      .reduce((a, [, r]) => a + r.schema_bytes, 0),
    dead_tools: tools.filter((t) => t.dead).length,
    unregistered_tools: tools.filter((t) => !t.registered && t.calls > 0).length,
    clients: clients.size,
    insights: {
      high: insights.filter((i) => i.severity === 'high').length,
      medium: insights.filter((i) => i.severity === 'medium').length,
      low: insights.filter((i) => i.severity === 'low').length,
    },
    tools,
  };
}
