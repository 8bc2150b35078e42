/**
 * Retry chains (wire-format §4): a maximal run of same-tool calls in a session, each ≤ 30 s
 * after the previous, containing at least one retry. Resolved when its last call is ok and
 * not empty.
 */
import { isOkNonEmpty, LINK_KINDS, type LinkKind } from './links.js';
import { OUTCOME_CLASSES, type OutcomeClass } from '../shared/outcomes.js';
import { outcomeClass } from './aggregate.js';

/** A call as chains read it (stored facts included). */
export interface ChainMember {
  id: number;
  session_id: string;
  tool_name: string;
  started_ms: number;
  duration_ms: number;
  outcome: string;
  is_empty: boolean | number;
  args_hash: string;
  link: number;
  run_id: number;
  chain: number;
}

/** One link between consecutive calls of a chain. */
export interface ChainLink {
  from: number;
  to: number;
  kind: LinkKind;
  gap_ms: number;
}

export interface Chain {
  /** The id of the chain's first call. */
  id: number;
  session_id: string;
  tool: string;
  started_ms: number;
  /** Start of the last call. */
  last_started_ms: number;
  /** End of the last call (start + duration). */
  ended_ms: number;
  call_count: number;
  call_ids: number[];
  links: ChainLink[];
  retries: number;
  repeats: number;
  unknown_links: number;
  resolved: boolean;
  final_outcome: OutcomeClass;
}

/**
 * Groups chain members (calls with `chain = 1`, in session order) into chains, in order of
 * their first call. Members of one chain must all be present.
 */
export function buildChains(members: readonly ChainMember[]): Chain[] {
  const runs = new Map<number, ChainMember[]>();
  for (const m of members) {
    if (!m.chain) continue;
    const list = runs.get(m.run_id);
    if (list) list.push(m);
    else runs.set(m.run_id, [m]);
  }
  const out: Chain[] = [];
  for (const [id, calls] of runs) {
    const first = calls[0]!;
    const last = calls.at(-1)!;
    const links: ChainLink[] = [];
    let retries = 0;
    let repeats = 0;
    let unknown = 0;
    for (let i = 0; i + 1 < calls.length; i++) {
      const a = calls[i]!;
      const b = calls[i + 1]!;
      const kind = LINK_KINDS[a.link] ?? 'none';
      if (kind === 'retry') retries++;
      else if (kind === 'repeat') repeats++;
      else if (kind === 'unknown') unknown++;
      links.push({ from: a.id, to: b.id, kind, gap_ms: b.started_ms - a.started_ms });
    }
    out.push({
      id,
      session_id: first.session_id,
      tool: first.tool_name,
      started_ms: first.started_ms,
      last_started_ms: last.started_ms,
      ended_ms: last.started_ms + last.duration_ms,
      call_count: calls.length,
      call_ids: calls.map((c) => c.id),
      links,
      retries,
      repeats,
      unknown_links: unknown,
      resolved: isOkNonEmpty(last),
      final_outcome: OUTCOME_CLASSES[outcomeClass(last.outcome, last.is_empty)]!,
    });
  }
  return out.sort((a, b) => a.started_ms - b.started_ms || a.id - b.id);
}
