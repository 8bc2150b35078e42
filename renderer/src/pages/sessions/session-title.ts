/**
 * A session's name in lists and headings. Ids are random, so a row is titled by what the
 * session did: the SDK's label when one was sent, else its client and the first tool it called
 * ("claude-code → search_issues").
 */
import type { SessionView } from '../../api/types';

export function sessionTitle(s: Pick<SessionView, 'label' | 'first_tool' | 'clients'>): string {
  if (s.label) return s.label;
  // Two clients in one server process: name the first, count the others (the column lists all).
  const client =
    s.clients.length === 0
      ? 'unknown client'
      : s.clients.length === 1
        ? s.clients[0]!
        : `${s.clients[0]} +${s.clients.length - 1}`;
  return s.first_tool ? `${client} → ${s.first_tool}` : client;
}
