/** Call rows as the maintainer reads them, and comparisons of their derived facts. */
import { LINK, type DerivedFacts, type LinkCode } from '../../../metrics/links.js';

/** A call row with its stored facts. */
export interface Row {
  id: number;
  project_id: number;
  session_id: string;
  client_name: string;
  tool_name: string;
  started_ms: number;
  duration_ms: number;
  outcome: string;
  response_bytes: number;
  is_empty: number;
  args_hash: string;
  link: LinkCode;
  prev_link: LinkCode;
  fcs: 0 | 1;
  run_id: number;
  chain: 0 | 1;
  prev_tool: string | null;
}

/**
 * A call about to be stored: its row as the engine reads it (facts at their defaults: `link`
 * 0 … `run_id` 0, the mark of a call not yet maintained) plus the columns only the insert
 * needs. Its id is assigned before the insert (`max(id) + 1` onwards, what SQLite would
 * give), so its facts can be computed first and stored with the row in one write.
 */
export interface FreshCall extends Row {
  batch_id: number;
  started_at: string;
  received_ms: number;
  /** Unknown fields as JSON, or null. */
  extra: string | null;
  omitted: number;
}

/** A call whose facts this request may change: its row and its facts to be. */
export interface Touched {
  row: Row;
  /** True for a call inserted by this request (no contribution yet). */
  isNew: boolean;
  next: DerivedFacts;
}

/** The counted members of a retry chain. */
export interface ChainStats {
  calls: number;
  retries: number;
  repeats: number;
  unknown_links: number;
}

/** Counts one member of a chain, whose link to the next call of its tool is `link`. */
export function countChainMember(stats: ChainStats, link: LinkCode): void {
  stats.calls++;
  if (link === LINK.retry) stats.retries++;
  else if (link === LINK.repeat) stats.repeats++;
  else if (link === LINK.unknown) stats.unknown_links++;
}

/** The columns of {@link Row}. */
export const COLS = `id, project_id, session_id, client_name, tool_name, started_ms, duration_ms, outcome,
  response_bytes, is_empty, args_hash, link, prev_link, fcs, run_id, chain, prev_tool`;
/** The stored facts of a row. */
export const factsOf = (r: DerivedFacts): DerivedFacts => ({
  link: r.link,
  prev_link: r.prev_link,
  fcs: r.fcs,
  run_id: r.run_id,
  chain: r.chain,
  prev_tool: r.prev_tool,
});
/** Whether two sets of facts are equal. */
export const sameFacts = (a: DerivedFacts, b: DerivedFacts): boolean =>
  a.link === b.link &&
  a.prev_link === b.prev_link &&
  a.fcs === b.fcs &&
  a.run_id === b.run_id &&
  a.chain === b.chain &&
  a.prev_tool === b.prev_tool;
/** Whether `a` comes after `b` in session order (start, then arrival). */
export const after = (
  a: { started_ms: number; id: number },
  b: { started_ms: number; id: number },
): boolean => a.started_ms > b.started_ms || (a.started_ms === b.started_ms && a.id > b.id);
