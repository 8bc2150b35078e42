/**
 * {@link CallConditions} as a WHERE fragment over `calls` with its named parameters — the one
 * place their SQL is written (the API passes the conditions as data).
 */
import type { CallConditions, CallFlag } from '../../../shared/call-conditions.js';
import { LATENCY_BUCKETS } from '../../../metrics/latency.js';
import { LINK } from '../../../metrics/links.js';
import type { Params } from './sql-parts.js';

/** A condition's SQL, by outcome class (OUTCOME_CLASSES order). */
const OUTCOME_CLASS_SQL = [
  "outcome = 'ok' AND is_empty = 0",
  "outcome = 'ok' AND is_empty = 1",
  "outcome = 'bad_args'",
  "outcome = 'tool_error'",
  "outcome = 'crashed'",
];

const FLAG_SQL: Record<CallFlag, string> = {
  first_call_success: 'fcs = 1',
  retried: `link = ${LINK.retry}`,
  repeated: `link = ${LINK.repeat}`,
  unknown_link: `link = ${LINK.unknown}`,
  retry_of_previous: `prev_link = ${LINK.retry}`,
  in_chain: 'chain = 1',
};

/** A WHERE fragment (empty for no conditions) and its parameters. */
export interface ConditionSql {
  sql: string;
  params: Params;
}

/** The fragment for `c`; no conditions is an empty fragment. */
export function conditionSql(c: CallConditions = {}): ConditionSql {
  const parts: string[] = [];
  const params: Params = {};
  if (c.outcomeClass !== undefined) parts.push(OUTCOME_CLASS_SQL[c.outcomeClass]!);
  if (c.errors !== undefined) parts.push(c.errors ? "outcome <> 'ok'" : "outcome = 'ok'");
  for (const [flag, on] of Object.entries(c.flags ?? {}) as [CallFlag, boolean | undefined][]) {
    if (on !== undefined) parts.push(on ? FLAG_SQL[flag] : `NOT (${FLAG_SQL[flag]})`);
  }
  if (c.latencyBucket !== undefined) {
    const lower = c.latencyBucket === 0 ? 0 : LATENCY_BUCKETS[c.latencyBucket - 1]!.upper_ms!;
    const upper = LATENCY_BUCKETS[c.latencyBucket]!.upper_ms;
    parts.push(
      upper === null
        ? `duration_ms >= ${lower}`
        : `duration_ms >= ${lower} AND duration_ms < ${upper}`,
    );
  }
  if (c.sizeBucket !== undefined) {
    parts.push('size_bucket = @size_bucket');
    params.size_bucket = c.sizeBucket;
  }
  if (c.fromTool !== undefined) {
    parts.push('prev_tool = @from_tool');
    params.from_tool = c.fromTool;
  }
  if (c.text !== undefined) {
    // The filter box: a substring of the tool, client, session id, args hash or outcome.
    parts.push(
      "(instr(lower(tool_name), @q) > 0 OR instr(lower(client_name), @q) > 0 OR instr(lower(session_id), @q) > 0 OR instr(lower(args_hash), @q) > 0 OR instr(lower(outcome), @q) > 0 OR instr(lower(replace(outcome, '_', ' ')), @q) > 0)",
    );
    params.q = c.text.toLowerCase().slice(0, 200);
  }
  if (c.chain !== undefined) {
    parts.push('chain = 1 AND run_id = @chain');
    params.chain = c.chain;
  }
  return { sql: parts.join(' AND '), params };
}
