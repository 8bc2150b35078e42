/**
 * Cuts inside a run, made exact in place. When a session's forgotten prefix ends less than the
 * retry window (30 s) before the next call, the calls left can belong to a run whose first
 * calls were forgotten. A rebuild would then give, per tool, the first call left of that run:
 * no predecessor (`prev_link` none); and every call left of the run: the first call left as its
 * `run_id`, and a `chain` flag from the links left. Nothing else about them changes — links look
 * forward, first-call success reads only the call's own link, and `prev_tool` of the session's
 * first call left is handled with the clean cuts. So those runs are rewritten here, moving each
 * call's contribution in the rollups from its old facts to its new ones with the same code the
 * ingest path uses, and their chain rows are written afresh (the old rows, keyed by a forgotten
 * head, went with the forgotten calls).
 *
 * Every such cut used to send the whole project to the engine's rebuild. Now only a run left
 * longer than {@link REPAIR_LIMIT} calls does: a session whose calls of one tool never pause for
 * 30 s (a load test) is one run, and renaming its run on every cut would cost the whole run per
 * step — one rebuild after the retention pass is cheaper then.
 */
import type Database from 'better-sqlite3';
import { RETRY_WINDOW_MS } from '../../../shared/metric-constants.js';
import { LINK } from '../../../metrics/links.js';
import {
  COLS,
  countChainMember,
  factsOf,
  type ChainStats,
  type Row,
  type Touched,
} from '../maintain/rows.js';
import { writeFactsAndRollups } from '../maintain/rollup-contributions.js';
import type { ChainPut, MaintainStatements } from '../maintain/statements.js';

/** The longest run left that is rewritten in place; a longer one goes to the rebuild. */
export const REPAIR_LIMIT = 1_000;

/** The last forgotten call of one tool in a session cut inside the retry window. */
export interface CutTool {
  project_id: number;
  session_id: string;
  tool_name: string;
  /** That tool's last forgotten call, in session order. */
  started_ms: number;
  id: number;
}

/** Rewrites the runs left behind by cuts inside the retry window; see the module comment. */
export interface RunRepair {
  /**
   * After the forgotten calls are deleted: repairs the run each of `cuts` left behind.
   * Answers the projects it did not repair (a call not yet maintained by the engine, `run_id`
   * 0, or a run left longer than {@link REPAIR_LIMIT}): the caller leaves those to the rebuild.
   */
  repair(cuts: readonly CutTool[]): Set<number>;
}

/** Prepares the repair on `db` and the maintainer's statements. */
export function createRunRepair(db: Database.Database, st: MaintainStatements): RunRepair {
  // The tool's first call left, only within the window: a call that starts later never linked
  // to a forgotten one, and a rare tool must not cost a scan of the rest of the session.
  const firstLeft = db.prepare<[number, string, string, number, number, number, number], Row>(
    `SELECT ${COLS} FROM calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? AND tool_name = ?
       AND started_ms >= ? AND (started_ms > ? OR id > ?) AND started_ms <= ?
     ORDER BY started_ms, id LIMIT 1`,
  );

  /** The calls left of the run a cut tool's first call left belongs to; null: nothing to do. */
  function runLeft(cut: CutTool): Row[] | null | 'rebuild' {
    const { project_id: p, session_id: s, tool_name: t, started_ms: ms } = cut;
    const head = firstLeft.get(p, s, t, ms, ms, cut.id, ms + RETRY_WINDOW_MS);
    if (!head) return null; // no call of the tool left within the window
    // A call not maintained yet (run_id 0) anywhere in reach: the rebuild settles it.
    if (head.run_id === 0) return 'rebuild';
    if (head.prev_link === LINK.none) return null; // its own run already
    const members: Row[] = [];
    for (const row of st.groupFrom.iterate(p, s, t, head.started_ms, head.started_ms, head.id)) {
      if (row.run_id === 0) return 'rebuild';
      if (row.run_id !== head.run_id) break;
      if (members.length === REPAIR_LIMIT) return 'rebuild';
      members.push(row);
    }
    return members;
  }

  return {
    repair(cuts) {
      const unrepaired = new Set<number>();
      const touched = new Map<number, Touched>();
      const chains: ChainPut[] = [];
      for (const cut of cuts) {
        const members = runLeft(cut);
        if (members === 'rebuild') unrepaired.add(cut.project_id);
        if (!members || members === 'rebuild') continue;
        const head = members[0]!;
        const chain: 0 | 1 = members.some((r) => r.link === LINK.retry) ? 1 : 0;
        members.forEach((row, i) =>
          touched.set(row.id, {
            row,
            isNew: false,
            next: {
              ...factsOf(row),
              prev_link: i === 0 ? LINK.none : row.prev_link,
              run_id: head.id,
              chain,
            },
          }),
        );
        if (chain) chains.push(chainOf(members));
      }
      for (const [id, t] of touched) if (unrepaired.has(t.row.project_id)) touched.delete(id);
      if (touched.size > 0) writeFactsAndRollups(st, touched);
      for (const c of chains) if (!unrepaired.has(c.project_id)) st.putChain(c);
      return unrepaired;
    },
  };
}

/** The chain row of a run left whole after its forgotten head, as the rebuild computes it. */
function chainOf(members: readonly Row[]): ChainPut {
  const head = members[0]!;
  const tail = members.at(-1)!;
  const stats: ChainStats = { calls: 0, retries: 0, repeats: 0, unknown_links: 0 };
  for (const r of members) countChainMember(stats, r.link);
  return {
    run_id: head.id,
    project_id: head.project_id,
    session_id: head.session_id,
    tool_name: head.tool_name,
    client_name: head.client_name,
    first_ms: head.started_ms,
    last_ms: tail.started_ms,
    last_end_ms: tail.started_ms + tail.duration_ms,
    stats,
    resolved: tail.outcome === 'ok' && !tail.is_empty ? 1 : 0,
    tail_id: tail.id,
  };
}
