/**
 * What a session is called in lists. Session ids are random (`s_` + 12 hex), so a list of them
 * says nothing; a row is titled by its first tool (beside its clients) or, when an SDK sent
 * one, by a label in an extra field. No public MCPulse SDK sends a label today (the contract
 * has none; newer PHP startups carry `sdk` and `transport`), so the label is read from the few
 * names a producer would plausibly use, on the session's startups first, then its first call.
 */
import type Database from 'better-sqlite3';

/** Extra-field names read as a session label, in order of preference. */
export const SESSION_LABEL_FIELDS = ['session_label', 'session_name', 'label'] as const;

/** Labels longer than this are cut (with an ellipsis): a title, not a document. */
export const SESSION_LABEL_MAX = 120;

/** The naming facts of one session. */
export interface SessionName {
  /** The tool of the session's first call (by start time), or null with no calls. */
  first_tool: string | null;
  /** A label the SDK sent as an extra field, trimmed and capped, or null. */
  label: string | null;
  /** When the session's first call started (ms), the time a generated name ends with. */
  first_call_ms: number | null;
}

/** The label in one stored `extra` JSON text, if it holds a usable one. */
export function labelOfExtra(text: string | null | undefined): string | null {
  if (typeof text !== 'string') return null;
  let extra: unknown;
  try {
    extra = JSON.parse(text);
  } catch {
    return null;
  }
  if (extra === null || typeof extra !== 'object' || Array.isArray(extra)) return null;
  for (const field of SESSION_LABEL_FIELDS) {
    const value = (extra as Record<string, unknown>)[field];
    if (typeof value !== 'string') continue;
    // Control characters would break a one-line title; whitespace runs collapse.
    const clean = Array.from(value, (ch) => (ch < ' ' || ch === '\u007f' ? ' ' : ch))
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
    if (!clean) continue;
    return clean.length > SESSION_LABEL_MAX
      ? `${Array.from(clean)
          .slice(0, SESSION_LABEL_MAX - 1)
          .join('')}…`
      : clean;
  }
  return null;
}

/** Reads sessions' names on one connection; two indexed lookups per session. */
export function sessionNamer(
  db: Database.Database,
): (project: number, session: string) => SessionName {
  const firstCall = db.prepare<
    [number, string],
    { tool_name: string; extra: string | null; started_ms: number }
  >(
    `SELECT tool_name, extra, started_ms FROM calls INDEXED BY calls_by_session
     WHERE project_id = ? AND session_id = ? ORDER BY started_ms, id LIMIT 1`,
  );
  // Only startups that carry extras are read; a session has one or two startups at most.
  const startupExtras = db
    .prepare<[number, string], string>(
      `SELECT extra FROM startups INDEXED BY startups_by_session
       WHERE project_id = ? AND session_id = ? AND extra IS NOT NULL ORDER BY id LIMIT 8`,
    )
    .pluck();
  return (project, session) => {
    const first = firstCall.get(project, session);
    let label: string | null = null;
    for (const text of startupExtras.all(project, session)) {
      label = labelOfExtra(text);
      if (label) break;
    }
    label ??= labelOfExtra(first?.extra);
    return {
      first_tool: first?.tool_name ?? null,
      label,
      first_call_ms: first?.started_ms ?? null,
    };
  };
}
