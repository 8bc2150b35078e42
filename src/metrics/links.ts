/**
 * The retry / repeat / unknown link rule and the per-call facts derived from it (wire-format
 * §4). This is the reference implementation: the store keeps the same facts incrementally at
 * ingest, and the tests check the two agree on every ordering of arrivals.
 */
import { RETRY_WINDOW_MS, UNKNOWN_HASH } from '../shared/metric-constants.js';

/** How a call relates to the next call of the same tool in its session. */
export type LinkKind = 'none' | 'retry' | 'repeat' | 'unknown';

/** Stored codes for {@link LinkKind} (`calls.link`, `calls.prev_link`). */
export const LINK = { none: 0, retry: 1, repeat: 2, unknown: 3 } as const;
export type LinkCode = (typeof LINK)[LinkKind];
export const LINK_KINDS: readonly LinkKind[] = ['none', 'retry', 'repeat', 'unknown'];

/** The fields the link rule reads. */
export interface LinkSide {
  started_ms: number;
  args_hash: string;
}

/**
 * The link from call `a` to the next same-tool call `b` in the same session: `none` when
 * there is no next call or it starts more than 30,000 ms later (exactly 30,000 still links);
 * `unknown` when either hash is `000000000000`; `repeat` for equal hashes; otherwise `retry`.
 */
export function linkKind(a: LinkSide, b: LinkSide | undefined): LinkKind {
  if (!b || b.started_ms - a.started_ms > RETRY_WINDOW_MS) return 'none';
  if (a.args_hash === UNKNOWN_HASH || b.args_hash === UNKNOWN_HASH) return 'unknown';
  return a.args_hash === b.args_hash ? 'repeat' : 'retry';
}

/** {@link linkKind} as its stored code. */
export const linkCode = (a: LinkSide, b: LinkSide | undefined): LinkCode => LINK[linkKind(a, b)];

/** Session order: `started_ms`, then arrival (`id`) for equal instants. */
export function compareCalls(
  a: { started_ms: number; id: number },
  b: { started_ms: number; id: number },
): number {
  return a.started_ms - b.started_ms || a.id - b.id;
}

/** What one call needs for its derived facts. */
export interface DeriveInput extends LinkSide {
  id: number;
  tool_name: string;
  outcome: string;
  is_empty: boolean | number;
}

/** The per-call facts kept exact at ingest. */
export interface DerivedFacts {
  /** Link to the next same-tool call in the session. */
  link: LinkCode;
  /** Link from the previous same-tool call to this one (this call "is a retry" when 1). */
  prev_link: LinkCode;
  /** First-call success: ok, not empty, not retried. */
  fcs: 0 | 1;
  /** Id of the first call of this call's run (same-tool calls each ≤ 30 s after the previous). */
  run_id: number;
  /** 1 when the run contains at least one retry, i.e. the call belongs to a retry chain. */
  chain: 0 | 1;
  /** Tool of the previous call in the session (any tool), for tool pairs. */
  prev_tool: string | null;
}

/** ok and not empty. `is_empty` only counts with `ok`: empties are not errors. */
export const isOkNonEmpty = (c: { outcome: string; is_empty: boolean | number }): boolean =>
  c.outcome === 'ok' && !c.is_empty;

/** First-call success of one call, given its link to the next same-tool call. */
export const firstCallSuccess = (
  c: { outcome: string; is_empty: boolean | number },
  link: LinkCode,
): 0 | 1 => (isOkNonEmpty(c) && link !== LINK.retry ? 1 : 0);

/**
 * Derives every per-call fact for the calls of ONE session (any order in, any arrival order:
 * only `started_ms` and then `id` decide the order).
 */
export function deriveSession<T extends DeriveInput>(
  calls: readonly T[],
): Map<number, DerivedFacts> {
  const ordered = [...calls].sort(compareCalls);
  const out = new Map<number, DerivedFacts>();
  const byTool = new Map<string, T[]>();
  let prevTool: string | null = null;
  for (const c of ordered) {
    out.set(c.id, {
      link: LINK.none,
      prev_link: LINK.none,
      fcs: 0,
      run_id: c.id,
      chain: 0,
      prev_tool: prevTool,
    });
    prevTool = c.tool_name;
    const list = byTool.get(c.tool_name);
    if (list) list.push(c);
    else byTool.set(c.tool_name, [c]);
  }
  for (const group of byTool.values()) {
    const facts = group.map((c) => out.get(c.id)!);
    let runStart = 0;
    const closeRun = (end: number): void => {
      const head = group[runStart]!.id;
      let chain: 0 | 1 = 0;
      for (let j = runStart; j < end; j++) if (facts[j]!.link === LINK.retry) chain = 1;
      for (let j = runStart; j < end; j++) {
        facts[j]!.run_id = head;
        facts[j]!.chain = chain;
      }
    };
    for (let i = 0; i < group.length; i++) {
      const c = group[i]!;
      const f = facts[i]!;
      f.link = linkCode(c, group[i + 1]);
      f.fcs = firstCallSuccess(c, f.link);
      if (i > 0) f.prev_link = facts[i - 1]!.link;
      if (i > 0 && f.prev_link === LINK.none) {
        closeRun(i);
        runStart = i;
      }
    }
    closeRun(group.length);
  }
  return out;
}
