/** Same-tool links, first-call success, runs and retry chains around new calls. */
import { RETRY_WINDOW_MS } from '../../../shared/metric-constants.js';
import { firstCallSuccess, LINK, linkCode } from '../../../metrics/links.js';
import { after, countChainMember, type ChainStats, type Row, type Touched } from './rows.js';
import type { MaintainStatements } from './statements.js';

/** Recomputes links, runs and chains around the new calls of one (project, session, tool). */
export function recomputeGroup(
  st: MaintainStatements,
  group: readonly Row[],
  touched: Map<number, Touched>,
  touch: (row: Row) => Touched,
): void {
  const {
    anchorOf,
    byId,
    groupFrom,
    chainRow,
    chainPrefixStats,
    chainPrefix,
    putChain,
    dropChain,
  } = st;
  const first = group[0]!;
  const last = group.at(-1)!;
  const { project_id: p, session_id: s, tool_name: t } = first;
  const windowStart = first.started_ms - RETRY_WINDOW_MS;
  const anchor = anchorOf.get(p, s, t, first.started_ms, first.started_ms, first.id, windowStart);
  let start: Row = first;
  let carried: { runId: number; chain: 0 | 1; anchor: Row } | null = null;
  if (anchor) {
    if (anchor.link === LINK.none) {
      // The anchor ended its run: the run is unchanged up to it, so carry its facts.
      start = anchor;
      carried = { runId: anchor.run_id, chain: anchor.chain, anchor };
    } else {
      // A call landed inside a run: recompute that run from its first call.
      start = byId.get(anchor.run_id) ?? anchor;
    }
  }
  const seq: Touched[] = [];
  for (const row of groupFrom.iterate(p, s, t, start.started_ms, start.started_ms, start.id)) {
    const prev = seq.at(-1)?.row;
    // Past the last new call, the first gap over 30 s ends everything that can change.
    if (prev && after(row, last) && row.started_ms - prev.started_ms > RETRY_WINDOW_MS) break;
    seq.push(touched.get(row.id) ?? touch(row));
  }
  const oldChains = new Set<number>();
  for (const x of seq) if (!x.isNew && x.row.chain === 1) oldChains.add(x.row.run_id);

  // Links and first-call success; runs split where a link is none.
  const runs: [number, number][] = [];
  let runStart = 0;
  for (let i = 0; i < seq.length; i++) {
    const cur = seq[i]!;
    cur.next.link = linkCode(cur.row, seq[i + 1]?.row);
    cur.next.fcs = firstCallSuccess(cur.row, cur.next.link);
    cur.next.prev_link =
      i === 0 ? (cur.isNew ? LINK.none : cur.row.prev_link) : seq[i - 1]!.next.link;
    if (i > 0 && cur.next.prev_link === LINK.none) {
      runs.push([runStart, i]);
      runStart = i;
    }
  }
  runs.push([runStart, seq.length]);

  const kept = new Set<number>();
  for (const [a, b] of runs) {
    const carry = a === 0 && carried ? carried : null;
    const runId = carry ? carry.runId : seq[a]!.row.id;
    let chain: 0 | 1 = carry ? carry.chain : 0;
    for (let j = a; j < b; j++) if (seq[j]!.next.link === LINK.retry) chain = 1;
    for (let j = a; j < b; j++) {
      seq[j]!.next.run_id = runId;
      seq[j]!.next.chain = chain;
    }
    if (!chain) continue;
    kept.add(runId);

    // The chain row; members before the anchor are not loaded, so take them from the old
    // row (the run already was a chain) or count them (it just became one).
    const st: ChainStats = { calls: 0, retries: 0, repeats: 0, unknown_links: 0 };
    let client = seq[a]!.row.client_name;
    let firstMs = seq[a]!.row.started_ms;
    if (carry && carry.runId !== carry.anchor.id) {
      const prior = carry.chain ? chainRow.get(carry.runId) : undefined;
      const headRow = touched.get(carry.runId)?.row ?? byId.get(carry.runId)!;
      if (prior) {
        st.calls = prior.calls - 1;
        st.retries = prior.retries;
        st.repeats = prior.repeats;
        st.unknown_links = prior.unknown_links;
      } else {
        const a0 = carry.anchor;
        const range = { p, s, t, run: carry.runId, fromMs: headRow.started_ms };
        Object.assign(st, chainPrefixStats.get({ ...range, toMs: a0.started_ms, toId: a0.id }));
        // The run before the anchor just became a retry chain: mark its members.
        chainPrefix.run({
          ...range,
          fromId: headRow.id,
          toMs: a0.started_ms,
          toId: a0.id,
        });
        touch(headRow).next.chain = 1;
        for (const x of touched.values()) {
          const r = x.row;
          if (r.project_id === p && r.session_id === s && r.tool_name === t) {
            if (x.next.run_id === carry.runId && !after(r, a0)) x.next.chain = 1;
          }
        }
      }
      client = headRow.client_name;
      firstMs = headRow.started_ms;
    }
    for (let j = a; j < b; j++) countChainMember(st, seq[j]!.next.link);
    const tail = seq[b - 1]!.row;
    putChain({
      run_id: runId,
      project_id: p,
      session_id: s,
      tool_name: t,
      client_name: client,
      first_ms: firstMs,
      last_ms: tail.started_ms,
      last_end_ms: tail.started_ms + tail.duration_ms,
      stats: st,
      resolved: tail.outcome === 'ok' && !tail.is_empty ? 1 : 0,
      tail_id: tail.id,
    });
  }
  for (const id of oldChains) if (!kept.has(id)) dropChain.run(id);
}
