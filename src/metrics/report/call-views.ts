/** Calls and retry chains as the API shows them, with the reason behind each call's facts. */
import { OUTCOME_CLASSES, type OutcomeClass } from '../../shared/outcomes.js';
import type { CallFields } from '../../shared/rows.js';
import { outcomeClass } from '../aggregate.js';
import { buildChains, type Chain, type ChainMember } from '../chains.js';
import { latencyBucketIndex } from '../latency.js';
import { LINK, LINK_KINDS, type LinkKind } from '../links.js';
import { sizeBucket } from '../sizes.js';

/** A call with its stored facts, as stored. */
export interface FactCall extends ChainMember {
  project_id: number;
  client_name: string;
  started_at: string;
  response_bytes: number;
  received_ms: number;
  prev_link: number;
  fcs: number;
  prev_tool: string | null;
  /** Fields the SDK sent beyond the contract, as stored (JSON text), when any. */
  extra?: string | null;
}

/** A call as the API shows it: what it is, and why it is or is not a first-call success. */
export interface CallView extends Omit<CallFields, 'outcome'> {
  outcome: string;
  outcome_class: OutcomeClass;
  /** Link to the next same-tool call in the session. */
  link: LinkKind;
  /** Link from the previous same-tool call. */
  prev_link: LinkKind;
  first_call_success: boolean;
  retried: boolean;
  /** The next same-tool call repeated the same arguments (paging/polling). */
  repeated: boolean;
  /** The next same-tool call could not be compared (an unhashable `000000000000`). */
  unknown_link: boolean;
  /** This call is a retry of the previous same-tool call. */
  retry_of_previous: boolean;
  repeat_of_previous: boolean;
  /** Id of the retry chain (its first call) this call belongs to, or null. */
  chain_id: number | null;
  prev_tool: string | null;
  /** Gap to the next same-tool call when known (session views). */
  next_gap_ms: number | null;
  latency_bucket: number;
  size_bucket: number;
  reason: string;
  /**
   * Fields the SDK sent beyond the contract (wire-format §2: unknown fields are allowed and
   * kept), or null. What a retry chain can show changing between attempts besides the hash.
   */
  extra: Record<string, unknown> | null;
}

/** Stored extras back as an object; text that is not a JSON object reads as none. */
function extraOf(text: string | null | undefined): Record<string, unknown> | null {
  if (typeof text !== 'string') return null;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const OUTCOME_WORDS: Record<string, string> = {
  bad_args: 'bad_args (the arguments failed validation; the handler never ran)',
  tool_error: 'tool_error (the tool ran and returned isError)',
  crashed: 'crashed (the tool threw)',
};

const seconds = (ms: number): string =>
  ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/** Why a call is or is not a first-call success, in one sentence. */
export function reasonOf(c: FactCall, nextGapMs: number | null): string {
  const oc = OUTCOME_CLASSES[outcomeClass(c.outcome, c.is_empty)]!;
  const gap = nextGapMs === null ? '' : ` ${seconds(nextGapMs)} later`;
  const retried = c.link === LINK.retry;
  const retryText = `retried: the next ${c.tool_name} call in this session started${gap || ' within 30 s'} with different arguments`;
  if (oc === 'ok' && !retried) {
    const note =
      c.link === LINK.repeat
        ? ` The next ${c.tool_name} call${gap} repeated the same arguments — paging or polling, not a retry.`
        : c.link === LINK.unknown
          ? ` The next ${c.tool_name} call${gap} could not be compared (arguments not hashable), so it is not counted as a retry.`
          : '';
    return `First-call success: ok, not empty, and not retried.${note}`;
  }
  const why: string[] = [];
  if (oc === 'empty') why.push('empty result (ok, but nothing in it)');
  else if (oc !== 'ok') why.push(`outcome ${OUTCOME_WORDS[oc] ?? oc}`);
  if (retried) why.push(retryText);
  return `Not a first-call success: ${why.join('; and ')}.`;
}

/** The API view of one call; `nextGapMs` is the start-to-start gap to the next same-tool call. */
export function callView(c: FactCall, nextGapMs: number | null = null): CallView {
  return {
    id: c.id,
    project_id: c.project_id,
    session_id: c.session_id,
    client_name: c.client_name,
    tool_name: c.tool_name,
    started_at: c.started_at,
    started_ms: c.started_ms,
    duration_ms: c.duration_ms,
    outcome: c.outcome,
    outcome_class: OUTCOME_CLASSES[outcomeClass(c.outcome, c.is_empty)]!,
    is_empty: Boolean(c.is_empty),
    response_bytes: c.response_bytes,
    args_hash: c.args_hash,
    received_ms: c.received_ms,
    link: LINK_KINDS[c.link] ?? 'none',
    prev_link: LINK_KINDS[c.prev_link] ?? 'none',
    first_call_success: c.fcs === 1,
    retried: c.link === LINK.retry,
    repeated: c.link === LINK.repeat,
    unknown_link: c.link === LINK.unknown,
    retry_of_previous: c.prev_link === LINK.retry,
    repeat_of_previous: c.prev_link === LINK.repeat,
    chain_id: c.chain ? c.run_id : null,
    prev_tool: c.prev_tool,
    next_gap_ms: nextGapMs,
    latency_bucket: latencyBucketIndex(c.duration_ms),
    size_bucket: sizeBucket(c.response_bytes),
    reason: reasonOf(c, nextGapMs),
    extra: extraOf(c.extra),
  };
}

/** Views of a session's calls (in session order), with gaps to each next same-tool call. */
export function sessionCallViews(calls: readonly FactCall[]): CallView[] {
  const nextGap = new Map<number, number>();
  const lastByTool = new Map<string, FactCall>();
  for (const c of calls) {
    const prev = lastByTool.get(c.tool_name);
    if (prev) nextGap.set(prev.id, c.started_ms - prev.started_ms);
    lastByTool.set(c.tool_name, c);
  }
  return calls.map((c) => callView(c, nextGap.get(c.id) ?? null));
}

/** A chain with its calls' views. */
export interface ChainView extends Chain {
  project_id: number;
  client_name: string;
  calls: CallView[];
}

/** Chains of ordered members, each with its calls. */
export function chainViews(members: readonly FactCall[]): ChainView[] {
  const byId = new Map(members.map((m) => [m.id, m]));
  const gaps = new Map<number, number>();
  const lastByRun = new Map<number, FactCall>();
  for (const m of members) {
    const prev = lastByRun.get(m.run_id);
    if (prev) gaps.set(prev.id, m.started_ms - prev.started_ms);
    lastByRun.set(m.run_id, m);
  }
  return buildChains(members).map((c) => {
    const first = byId.get(c.id) ?? byId.get(c.call_ids[0]!)!;
    return {
      ...c,
      project_id: first.project_id,
      client_name: first.client_name,
      calls: c.call_ids.map((id) => callView(byId.get(id)!, gaps.get(id) ?? null)),
    };
  });
}
