/**
 * The in-order path: new calls of a session that all start after everything stored for it —
 * how SDKs send, and so nearly every call. Their facts follow from the session's end alone
 * (./tails.ts): the previous call of the same tool gains a link to the new one, the new one
 * starts a run or joins that call's run, and a run turns into a retry chain at its first
 * retry. Nothing after a new call exists yet, so nothing else can change — the general path
 * (./same-tool-runs.ts, for late and out-of-order calls) computes the same facts by reading
 * the neighbours back, and the tests hold the two to a full rebuild.
 */
import { RETRY_WINDOW_MS } from '../../../shared/metric-constants.js';
import {
  firstCallSuccess,
  isOkNonEmpty,
  LINK,
  linkCode,
  type LinkCode,
} from '../../../metrics/links.js';
import type { ChainStats, FreshCall, Row, Touched } from './rows.js';
import type { MaintainStatements } from './statements.js';
import type { RunState, SessionTail, TailCache, ToolTail } from './tails.js';

/** A chain whose row must be written after the slice: its run and its last call. */
interface ChainTail {
  run: RunState;
  tail: Row;
}

/** Everything one slice's in-order appends share. */
export interface AppendSlice {
  touched: Map<number, Touched>;
  /** Makes a stored call part of the slice's changes (its facts as stored, to be changed). */
  touch(row: Row): Touched;
  /** Each run's members touched in this slice (new ones, and stored ones whose facts change). */
  members: Map<number, Touched[]>;
  chains: Map<number, ChainTail>;
}

/** Reads a session's end from the cache, or from the database on a miss. */
export function sessionTail(
  st: MaintainStatements,
  tails: TailCache,
  projectId: number,
  sessionId: string,
): SessionTail {
  let tail = tails.get(projectId, sessionId);
  if (!tail) {
    tail = { last: st.sessionLast.get(projectId, sessionId) ?? null, tools: new Map() };
    tails.set(projectId, sessionId, tail);
  }
  return tail;
}

/** Whether calls sorted in session order all come after the session's stored end. */
export function comesAfter(tail: SessionTail, first: Row): boolean {
  const last = tail.last;
  return (
    !last ||
    first.started_ms > last.started_ms ||
    (first.started_ms === last.started_ms && first.id > last.id)
  );
}

const addLink = (s: ChainStats, link: LinkCode, sign: number): void => {
  if (link === LINK.retry) s.retries += sign;
  else if (link === LINK.repeat) s.repeats += sign;
  else if (link === LINK.unknown) s.unknown_links += sign;
};

/**
 * Appends one session's new calls (sorted in session order, all after `tail.last`): sets
 * their facts in `slice.touched`, changes the facts of the stored calls they link to, and
 * records the chains to write. The caller inserts the rows and moves the rollups.
 */
export function appendSession(
  st: MaintainStatements,
  tail: SessionTail,
  calls: readonly FreshCall[],
  slice: AppendSlice,
): void {
  const { touched, touch, members, chains } = slice;
  const memberList = (runId: number): Touched[] => {
    let list = members.get(runId);
    if (!list) members.set(runId, (list = []));
    return list;
  };

  /** The tool's last call, from the cache or the database. */
  const toolTail = (c: FreshCall): ToolTail | null => {
    let g = tail.tools.get(c.tool_name);
    if (g !== undefined) return g;
    const row = st.toolLast.get(
      c.project_id,
      c.session_id,
      c.tool_name,
      c.started_ms - RETRY_WINDOW_MS,
    );
    g = null;
    if (row) {
      const run: RunState = { runId: row.run_id, chain: row.chain, stats: null };
      if (row.chain) {
        const known = st.chainRow.get(row.run_id);
        if (known) {
          run.stats = {
            calls: known.calls,
            retries: known.retries,
            repeats: known.repeats,
            unknown_links: known.unknown_links,
          };
          run.headMs = known.first_ms;
          run.headClient = known.client_name;
        } else {
          run.stats = countRun(run, c); // a chain without its row: count it (nothing touched yet)
        }
      }
      g = { row, run };
    }
    tail.tools.set(c.tool_name, g);
    return g;
  };

  /** Reads the run's first call when only its id is known. */
  const head = (run: RunState): Row => {
    const fromSlice = touched.get(run.runId)?.row;
    const row = fromSlice ?? st.byId.get(run.runId)!;
    run.headMs = row.started_ms;
    run.headClient = row.client_name;
    return row;
  };

  /**
   * Counts a run found in the database that was no chain: its stored members by their stored
   * links, corrected for the members this slice touched (new ones, and stored ones whose link
   * it changed).
   */
  const countRun = (run: RunState, c: FreshCall): ChainStats => {
    if (run.headMs === undefined) head(run);
    const stored = st.chainPrefixStats.get({
      p: c.project_id,
      s: c.session_id,
      t: c.tool_name,
      run: run.runId,
      fromMs: run.headMs!,
      toMs: Number.MAX_SAFE_INTEGER,
      toId: Number.MAX_SAFE_INTEGER,
    })!;
    const stats: ChainStats = { ...stored };
    for (const x of memberList(run.runId)) {
      if (x.isNew) stats.calls++;
      else addLink(stats, x.row.link, -1);
      addLink(stats, x.next.link, 1);
    }
    return stats;
  };

  /** The run just got its first retry: every member belongs to a retry chain now. */
  const becomeChain = (run: RunState, c: FreshCall): void => {
    run.chain = 1;
    run.stats ??= countRun(run, c);
    const list = memberList(run.runId);
    const headTouched = touched.get(run.runId);
    if (!headTouched || !headTouched.isNew) {
      // The run began before this slice: mark its stored members (the head and the calls
      // this slice touched are written with their facts below).
      const headRow = headTouched?.row ?? head(run);
      st.chainPrefix.run({
        p: c.project_id,
        s: c.session_id,
        t: c.tool_name,
        run: run.runId,
        fromMs: headRow.started_ms,
        fromId: headRow.id,
        toMs: Number.MAX_SAFE_INTEGER,
        toId: Number.MAX_SAFE_INTEGER,
      });
      if (!headTouched) list.push(touch(headRow));
    }
    for (const x of list) x.next.chain = 1;
    if (run.headMs === undefined) head(run);
  };

  let last = tail.last;
  for (const c of calls) {
    const t: Touched = {
      row: c,
      isNew: true,
      next: {
        link: LINK.none,
        prev_link: LINK.none,
        fcs: firstCallSuccess(c, LINK.none),
        run_id: c.id,
        chain: 0,
        prev_tool: last?.tool_name ?? null,
      },
    };
    touched.set(c.id, t);
    const g = toolTail(c);
    let run: RunState;
    if (g && c.started_ms - g.row.started_ms <= RETRY_WINDOW_MS) {
      // Within the window: the tool's last call links to this one, which joins its run.
      const link = linkCode(g.row, c);
      run = g.run;
      let prev = touched.get(g.row.id);
      if (!prev) memberList(run.runId).push((prev = touch(g.row)));
      prev.next.link = link;
      prev.next.fcs = firstCallSuccess(g.row, link);
      t.next.prev_link = link;
      t.next.run_id = run.runId;
      memberList(run.runId).push(t);
      if (run.stats) {
        run.stats.calls++;
        addLink(run.stats, link, 1);
      }
      if (link === LINK.retry && !run.chain) becomeChain(run, c);
      t.next.chain = run.chain;
    } else {
      run = {
        runId: c.id,
        chain: 0,
        headMs: c.started_ms,
        headClient: c.client_name,
        stats: { calls: 1, retries: 0, repeats: 0, unknown_links: 0 },
      };
      memberList(run.runId).push(t);
    }
    tail.tools.set(c.tool_name, { row: c, run });
    if (run.chain) chains.set(run.runId, { run, tail: c });
    last = { started_ms: c.started_ms, id: c.id, tool_name: c.tool_name };
  }
  tail.last = last;
}

/** Writes the chain rows of the runs the slice extended or created. */
export function putChains(st: MaintainStatements, chains: Map<number, ChainTail>): void {
  for (const { run, tail } of chains.values()) {
    st.putChain({
      run_id: run.runId,
      project_id: tail.project_id,
      session_id: tail.session_id,
      tool_name: tail.tool_name,
      client_name: run.headClient!,
      first_ms: run.headMs!,
      last_ms: tail.started_ms,
      last_end_ms: tail.started_ms + tail.duration_ms,
      stats: run.stats!,
      resolved: isOkNonEmpty(tail) ? 1 : 0,
      tail_id: tail.id,
    });
  }
}

/** The cached tails of `tail` as stored: the slice's new facts folded into their rows. */
export function settleTails(tail: SessionTail, touched: Map<number, Touched>): void {
  for (const [tool, g] of tail.tools) {
    const t = g && touched.get(g.row.id);
    if (!t) continue;
    const r = t.row;
    tail.tools.set(tool, {
      run: g.run,
      row: {
        id: r.id,
        project_id: r.project_id,
        session_id: r.session_id,
        client_name: r.client_name,
        tool_name: r.tool_name,
        started_ms: r.started_ms,
        duration_ms: r.duration_ms,
        outcome: r.outcome,
        response_bytes: r.response_bytes,
        is_empty: r.is_empty,
        args_hash: r.args_hash,
        ...t.next,
      },
    });
  }
}
