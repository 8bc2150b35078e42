/**
 * The metrics engine's memory of where each session ends: per (project, session) the last
 * call in session order, and per tool that tool's last call with the run it ends. A call that
 * arrives in order — after everything stored for its session, which is how SDKs send — gets
 * its facts from here without reading a single neighbour (./append.ts).
 *
 * It is only ever a cache of what the database says. Anything that changes stored calls
 * other than the engine's own in-order appends forgets it: deletes (retention, clear-all),
 * rebuilds, the out-of-order path, and any transaction that fails. A miss reads the session's
 * end from the database again. Bounded: the least recently used sessions are dropped first.
 */
import type Database from 'better-sqlite3';
import type { ChainStats, Row } from './rows.js';

/** The run (same-tool calls each ≤ 30 s after the previous) a tool's last call belongs to. */
export interface RunState {
  /** The run's first call (`run_id` of every member). */
  runId: number;
  /** 1 once the run holds a retry: it is a retry chain, with a `metrics_chains` row. */
  chain: 0 | 1;
  /** The first call's start and client; `undefined` until read (a run found in the database). */
  headMs?: number;
  headClient?: string;
  /**
   * The members counted as in its chain row (calls; retries, repeats and unknown links among
   * the members' own links), or `null` when not known yet (a run found in the database that
   * is no chain: counted when it becomes one).
   */
  stats: ChainStats | null;
}

/** A tool's last call in a session, with its facts as stored, and its run. */
export interface ToolTail {
  row: Row;
  run: RunState;
}

/** Where one session ends. */
export interface SessionTail {
  /** The last call in session order (start, then id), or null for a session with no call. */
  last: { started_ms: number; id: number; tool_name: string } | null;
  /** Per tool: its last call, or null when the session has none of that tool. Filled lazily. */
  tools: Map<string, ToolTail | null>;
}

/** How many sessions are remembered (about 1 KB each with a few tools). */
export const TAIL_SESSIONS = 4096;

/** The cache of one connection. */
export class TailCache {
  private readonly sessions = new Map<string, SessionTail>();

  /** The remembered end of a session, marked most recently used; undefined when not known. */
  get(projectId: number, sessionId: string): SessionTail | undefined {
    const key = `${projectId}\u0000${sessionId}`;
    const tail = this.sessions.get(key);
    if (tail) {
      this.sessions.delete(key);
      this.sessions.set(key, tail);
    }
    return tail;
  }

  set(projectId: number, sessionId: string, tail: SessionTail): void {
    const key = `${projectId}\u0000${sessionId}`;
    this.sessions.delete(key);
    this.sessions.set(key, tail);
    if (this.sessions.size > TAIL_SESSIONS) {
      const oldest = this.sessions.keys().next().value;
      if (oldest !== undefined) this.sessions.delete(oldest);
    }
  }

  /** Forgets one session (its calls were maintained some other way). */
  drop(projectId: number, sessionId: string): void {
    this.sessions.delete(`${projectId}\u0000${sessionId}`);
  }

  /** Forgets everything. */
  clear(): void {
    this.sessions.clear();
  }

  get size(): number {
    return this.sessions.size;
  }
}

const caches = new WeakMap<Database.Database, TailCache>();

/** The one cache of `db`, shared by every maintainer on that connection. */
export function tailsOf(db: Database.Database): TailCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new TailCache()));
  return cache;
}

/**
 * Forgets what the engine remembers of `db`'s sessions: call after anything that deletes or
 * rewrites stored calls outside the engine (retention, clear-all), and after a failed write.
 */
export function forgetTails(db: Database.Database): void {
  caches.get(db)?.clear();
}
