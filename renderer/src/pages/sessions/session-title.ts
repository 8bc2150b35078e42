/**
 * A session's name in lists and headings. Ids are random, so a session is titled by what it
 * was: the producer's label when one was sent (`session_label` on its startup — the demo sends
 * its scenario's), else its client, the first tool it called and when it started
 * ("claude-code → search_issues · 14:02:31"), so sessions of one client and tool still differ.
 * A session that connected and never called a tool says so. The `s_…` id is secondary text.
 */
import type { CallView, SessionView } from '../../api/types';

/** The clock time a generated name ends with, in the viewer's zone. */
const timeOf = (ms: number): string =>
  new Date(ms).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });

export function sessionTitle(
  s: Pick<SessionView, 'label' | 'first_tool' | 'clients'> & { first_seen_ms?: number },
): string {
  if (s.label) return s.label;
  // Two clients in one server process: name the first, count the others (the column lists all).
  const client =
    s.clients.length === 0
      ? 'unknown client'
      : s.clients.length === 1
        ? s.clients[0]!
        : `${s.clients[0]} +${s.clients.length - 1}`;
  const what = s.first_tool ? `${client} → ${s.first_tool}` : `${client} · no tool calls`;
  return s.first_seen_ms === undefined ? what : `${what} · ${timeOf(s.first_seen_ms)}`;
}

/**
 * The name of a call's session, from the naming facts the calls API sends with each row
 * (its label, first tool and first call's start); the call's own client stands for the
 * session's. Without them (a session's own calls) the short `s_…` id is what is known.
 */
export function callSessionTitle(
  c: Pick<CallView, 'session_id' | 'client_name' | 'session_name'>,
): string {
  const n = c.session_name;
  if (!n) return c.session_id;
  return sessionTitle({
    label: n.label,
    first_tool: n.first_tool,
    clients: [c.client_name],
    ...(n.first_seen_ms === null ? {} : { first_seen_ms: n.first_seen_ms }),
  });
}
