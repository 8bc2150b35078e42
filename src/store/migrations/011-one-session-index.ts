/**
 * Migration 11: one index over a session's calls instead of two.
 *
 * `calls_by_session` (project, session, start, id) gave a session's calls in order;
 * `calls_by_session_tool` (project, session, tool, start, id, client) gave one tool's calls in
 * a session. Every call went into both, and into the second at one place per (session, tool)
 * rather than one per session — so its pages split in the middle five times as often. It was the
 * dearest of the four: 2.4 of the ~9 µs of CPU an inserted row costs with its indexes, the
 * table itself 3.3 (docs/benchmarks-history.md, "Issue 19, session 12").
 *
 * The new `calls_by_session` (project, session, start, id, tool, client) serves both: a
 * session's calls in order as before, and one tool's calls in it by reading the session's
 * entries in order and skipping other tools inside the index (no row is read for them). The
 * reads that looked up one tool's neighbours are all bounded in time — the call before a new
 * one matters only within the 30 s retry window, a run's calls lie between its first and last
 * — and "a tool's first call in a session" is looked up once per (session, tool), not once per
 * failing call (src/store/tool-errors.ts).
 *
 * Building the index reads every call once: a file of 1,030,000 calls upgraded in 1.1 s and
 * kept its size (the old indexes' pages hold the new one). Applying a call into that file then
 * cost 14–29% less CPU and wrote 24% fewer WAL frames (0.62 → 0.47 per call).
 */
export const sql = /* sql */ `
DROP INDEX calls_by_session_tool;
DROP INDEX calls_by_session;
CREATE INDEX calls_by_session ON calls(project_id, session_id, started_ms, id, tool_name, client_name);
`;
