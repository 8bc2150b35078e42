/**
 * Sessions whose last batch probably never arrived (docs/metrics.md, "Lost last batch").
 *
 * SDKs buffer payloads and post them every 5 s or at 30 payloads; a process that exits without
 * a final flush loses whatever was buffered. The Go SDK's `defer mcpulse.FlushAll()` can return
 * before its sender goroutine has even taken the last batch (mcpulse-go buffer.go `close`: it
 * waits on a mutex the sender has not locked yet), so a short-lived Go server loses its last
 * batch routinely. What that leaves behind, and what this finds, once the session has been quiet
 * for {@link QUIET_MS}:
 *
 * - `startup-only`, from the Go SDK only (`user-agent: mcpulse-go`): a startup and no calls at
 *   all. Go sends its startup on the first `tools/list` — which every client follows with its
 *   calls — through the same buffer; a lone startup went out on a timer flush and the calls
 *   after it were in the batch `FlushAll` did not wait for. Every other SDK flushes at exit
 *   (TS, Ruby, PHP, .NET, Kotlin), and TS sends a startup on every `initialize`, so a lone
 *   startup from them is a client that connected, listed the tools and left: a session with
 *   no tool calls, not a loss.
 * - `full-last-batch`: the last request that carried anything of the session held exactly 30
 *   payloads (the flush size), all of them this session's (an SDK's stream is one session per
 *   process), i.e. it was sent because the buffer filled, not by a timer or an exit flush — so
 *   more were being buffered when the session went quiet, and nothing followed. (Imports and
 *   replays post many sessions per request; such a request says nothing about how a session
 *   ended. An exit or timer flush can hold any count; only a size flush holds exactly 30.)
 */
import type Database from 'better-sqlite3';
import { connectionOf } from './connection.js';
import type { ReadStore } from './index.js';
import { statementCache } from './statement-cache.js';
import { sessionNamer } from './metrics/queries/session-names.js';

/** How long a session must have been quiet before its ending is judged: two flush intervals. */
export const QUIET_MS = 10_000;

/** A batch this full was sent because the SDK's buffer filled (SDKs flush at 30 payloads). */
export const FULL_BATCH = 30;

/** The Go SDK's `user-agent` (mcpulse-go transport.go): the one SDK whose exit flush can lose. */
export const GO_USER_AGENT = 'mcpulse-go';

/** Which pattern a session's ending matches. */
export type EndingKind = 'startup-only' | 'full-last-batch';

/** One session whose last batch looks lost. */
export interface SessionEnding {
  session_id: string;
  project_id: number;
  kind: EndingKind;
  client_name: string;
  calls: number;
  startups: number;
  /** When the last request carrying this session arrived. */
  last_received_ms: number;
  /** Payloads (accepted + rejected) in that request. */
  last_batch_payloads: number;
  /** That request's `user-agent` (`mcpulse-go` for the Go SDK), if it sent one. */
  user_agent: string | null;
}

interface SessionFacts {
  calls: number;
  startups: number;
  last_received_ms: number | null;
  last_batch_id: number | null;
  client_name: string | null;
}

/** Reads over the raw tables; every query uses the session indexes. */
export function createSessionEndings(db: Database.Database) {
  const prepare = statementCache(db);
  const nameOf = sessionNamer(db);

  /** The session's counts, its newest request and its newest client name. */
  const facts = (projectId: number, sessionId: string): SessionFacts =>
    prepare(
      `SELECT (SELECT count(*) FROM calls WHERE project_id = @project AND session_id = @session) AS calls,
              (SELECT count(*) FROM startups WHERE project_id = @project AND session_id = @session) AS startups,
              max(received_ms) AS last_received_ms, max(batch_id) AS last_batch_id,
              (SELECT client_name FROM (
                 SELECT client_name, received_ms, id FROM calls WHERE project_id = @project AND session_id = @session
                 UNION ALL
                 SELECT client_name, received_ms, id FROM startups WHERE project_id = @project AND session_id = @session)
               ORDER BY received_ms DESC, id DESC LIMIT 1) AS client_name
       FROM (SELECT received_ms, batch_id FROM calls WHERE project_id = @project AND session_id = @session
             UNION ALL
             SELECT received_ms, batch_id FROM startups WHERE project_id = @project AND session_id = @session)`,
    ).get({ project: projectId, session: sessionId }) as SessionFacts;

  /**
   * A request's size, its user agent, and how many of its payloads are this session's — counted
   * through the session's own rows (the session indexes), not by scanning for the batch.
   */
  const batch = (id: number, projectId: number, sessionId: string) =>
    prepare(
      `SELECT accepted, accepted + rejected AS payloads, user_agent,
              (SELECT count(*) FROM calls
                WHERE project_id = @project AND session_id = @session AND batch_id = @id) +
              (SELECT count(*) FROM startups
                WHERE project_id = @project AND session_id = @session AND batch_id = @id) AS own
       FROM batches WHERE id = @id`,
    ).get({ id, project: projectId, session: sessionId }) as
      { accepted: number; payloads: number; user_agent: string | null; own: number } | undefined;

  /** How one session ended, or `null` when nothing suggests a lost batch. */
  const judge = (projectId: number, sessionId: string, nowMs: number): SessionEnding | null => {
    const f = facts(projectId, sessionId);
    if (f.last_received_ms === null || f.last_batch_id === null) return null;
    if (nowMs - f.last_received_ms < QUIET_MS) return null;
    const last = batch(f.last_batch_id, projectId, sessionId);
    const payloads = last?.payloads ?? 0;
    // One session's request only: every payload stored from it is this session's. (A payload type
    // kept in another table would make this false: a missed flag, never a false one.)
    const ownRequest = last !== undefined && last.own === last.accepted;
    const kind: EndingKind | null =
      f.calls === 0 && f.startups > 0
        ? last?.user_agent === GO_USER_AGENT
          ? 'startup-only'
          : null
        : f.calls > 0 && payloads === FULL_BATCH && ownRequest
          ? 'full-last-batch'
          : null;
    if (kind === null) return null;
    return {
      session_id: sessionId,
      project_id: projectId,
      kind,
      client_name: f.client_name ?? 'unknown',
      calls: f.calls,
      startups: f.startups,
      last_received_ms: f.last_received_ms,
      last_batch_payloads: payloads,
      user_agent: last?.user_agent ?? null,
    };
  };

  return {
    judge,

    /** The project a session belongs to (the newest, if two keys share a session id). */
    projectOf(sessionId: string): number | undefined {
      const row = prepare(
        `SELECT project_id FROM (
           SELECT project_id, received_ms FROM calls WHERE session_id = @session
           UNION ALL SELECT project_id, received_ms FROM startups WHERE session_id = @session)
         ORDER BY received_ms DESC LIMIT 1`,
      ).get({ session: sessionId }) as { project_id: number } | undefined;
      return row?.project_id;
    },

    /**
     * Lost-batch suspects among the most recently active sessions (at most `limit` sessions
     * looked at: the newest 5,000 calls' and 500 startups' sessions), newest first.
     */
    recent(options: { projectId?: number; nowMs: number; limit?: number }): SessionEnding[] {
      const limit = Math.max(1, Math.min(100, options.limit ?? 20));
      const sessions = prepare(
        `SELECT project_id, session_id, max(received_ms) AS last_ms FROM (
           SELECT * FROM (SELECT project_id, session_id, received_ms FROM calls
                          WHERE @project IS NULL OR project_id = @project ORDER BY id DESC LIMIT 5000)
           UNION ALL
           SELECT * FROM (SELECT project_id, session_id, received_ms FROM startups
                          WHERE @project IS NULL OR project_id = @project ORDER BY id DESC LIMIT 500))
         GROUP BY project_id, session_id ORDER BY last_ms DESC LIMIT @limit`,
      ).all({ project: options.projectId ?? null, limit }) as {
        project_id: number;
        session_id: string;
      }[];
      return sessions
        .map((s) => judge(s.project_id, s.session_id, options.nowMs))
        .filter((e): e is SessionEnding => e !== null);
    },

    /**
     * The newest payload of any kind: which client and session it came from, and how many calls
     * that session has. `null` before anything was stored.
     */
    latest(projectId?: number): {
      session_id: string;
      project_id: number;
      client_name: string;
      calls: number;
      startups: number;
      received_ms: number;
      /** What names the session (src/store/metrics/queries/session-names.ts). */
      label: string | null;
      first_tool: string | null;
      /** The first call's start, else the first startup's arrival. */
      first_seen_ms: number;
    } | null {
      const row = prepare(
        `SELECT project_id, session_id, client_name, received_ms FROM (
           SELECT * FROM (SELECT project_id, session_id, client_name, received_ms, id FROM calls
                          WHERE @project IS NULL OR project_id = @project ORDER BY id DESC LIMIT 1)
           UNION ALL
           SELECT * FROM (SELECT project_id, session_id, client_name, received_ms, id FROM startups
                          WHERE @project IS NULL OR project_id = @project ORDER BY id DESC LIMIT 1))
         ORDER BY received_ms DESC LIMIT 1`,
      ).get({ project: projectId ?? null }) as
        | { project_id: number; session_id: string; client_name: string; received_ms: number }
        | undefined;
      if (row === undefined) return null;
      const f = facts(row.project_id, row.session_id);
      const first = prepare(
        `SELECT coalesce(
           (SELECT min(started_ms) FROM calls WHERE project_id = @project AND session_id = @session),
           (SELECT min(received_ms) FROM startups WHERE project_id = @project AND session_id = @session))`,
      )
        .pluck()
        .get({ project: row.project_id, session: row.session_id }) as number | null;
      const name = nameOf(row.project_id, row.session_id);
      return {
        ...row,
        calls: f.calls,
        startups: f.startups,
        label: name.label,
        first_tool: name.first_tool,
        first_seen_ms: first ?? row.received_ms,
      };
    },
  };
}

/** The reads {@link createSessionEndings} makes. */
export type SessionEndings = ReturnType<typeof createSessionEndings>;

const cache = new WeakMap<Database.Database, SessionEndings>();

/** The session-ending reads of a store's connection (prepared once per connection). */
export function sessionEndingsOf(store: ReadStore): SessionEndings {
  const db = connectionOf(store);
  let reads = cache.get(db);
  if (!reads) cache.set(db, (reads = createSessionEndings(db)));
  return reads;
}
