/**
 * The message log's filter once a session is longer than the log holds (MESSAGE_LOG_CAP): the
 * browser has only the session's start, so the server filters the whole session
 * (`GET /api/messages` with method, kind and q) and the log lists its matches instead.
 */
import { getApi } from '../../api/api';
import { contentPaths, MESSAGE_FILTER_LIMIT, type MessageView } from '../../api/content';
import { useResource } from '../../hooks/useResource';
import { fmtInt } from '../../lib/format';
import type { MessageFilter } from './messages';

export function useBeyondCap(
  sessionId: string,
  filter: MessageFilter,
  capped: boolean,
): { matches: MessageView[] | null; note: string | null } {
  const active = capped && Boolean(filter.method || filter.kind || filter.q.trim());
  const res = useResource(
    active ? contentPaths.filteredMessages(sessionId, filter) : null,
    (p) => getApi(p),
    { live: false },
  );
  if (!active) return { matches: null, note: null };
  if (res.error) return { matches: [], note: `The server could not filter: ${res.error}` };
  if (!res.data) return { matches: [], note: 'Filtering the whole session on the server…' };
  const full = res.data.messages.length >= MESSAGE_FILTER_LIMIT;
  return {
    matches: res.data.messages,
    note: `Filtered on the server over all ${fmtInt(res.data.total)} messages${
      full ? `; the first ${fmtInt(MESSAGE_FILTER_LIMIT)} matches are listed` : ''
    }.`,
  };
}

/** The messages of both lists once each, in seq order (for pairing matches past the cap). */
export function mergeBySeq(held: MessageView[], extra: MessageView[] | null): MessageView[] {
  if (!extra || extra.length === 0) return held;
  const bySeq = new Map<number, MessageView>();
  for (const m of held) bySeq.set(m.seq, m);
  for (const m of extra) bySeq.set(m.seq, m);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}
