/**
 * The proxy's content routes (docs/api.md "Proxy content"): the messages of a session, one
 * call's arguments and answer, a tool's failures grouped by error text. The shapes are the
 * contract's own (src/shared/proxy-content.ts); none of this exists for SDK sessions, which
 * send no content.
 */
import type {
  CallContent,
  MessageKind,
  MessageView,
  ProxySessionInfo,
  UnansweredRequest,
} from '../../../src/shared/proxy-content';
import { apiQuery, type Filters } from '../app/filters';
import { apiPath, getApi } from './api';
import type { Api } from './types';

export type { CallContent, MessageKind, MessageView, ProxySessionInfo, UnansweredRequest };

/** Messages fetched per request while reading a whole session. */
export const MESSAGE_PAGE = 1000;
/** The message log stops reading past this many (a session of hours can hold more). */
export const MESSAGE_LOG_CAP = 20_000;
/** Matches a server-side filter lists at most (the route's own maximum page). */
export const MESSAGE_FILTER_LIMIT = 5000;

export const contentPaths = {
  messages: (session: string, afterSeq: number | null) => {
    const q = new URLSearchParams({ session, limit: String(MESSAGE_PAGE) });
    if (afterSeq !== null) q.set('after_seq', String(afterSeq));
    return apiPath('messages', `?${q.toString()}`);
  },
  /** The server's own filter over the whole session (what the log asks once past its cap). */
  filteredMessages: (
    session: string,
    f: { method: string; kind: string; q: string },
    limit = MESSAGE_FILTER_LIMIT,
  ) => {
    const q = new URLSearchParams({ session, limit: String(limit) });
    if (f.method) q.set('method', f.method);
    if (f.kind) q.set('kind', f.kind);
    if (f.q.trim()) q.set('q', f.q.trim());
    return apiPath('messages', `?${q.toString()}`);
  },
  call: (id: number) => apiPath('call', '', { id: String(id) }),
  /** A tool's failing calls grouped by error text, under the view's filters. */
  toolErrors: (f: Filters, name: string) =>
    apiPath('toolErrors', apiQuery({ ...f, tool: undefined }), { name }),
};

/** Every message of a session in order, page by page, up to MESSAGE_LOG_CAP. */
export async function fetchSessionMessages(
  session: string,
  signal?: AbortSignal,
): Promise<{ messages: MessageView[]; total: number; capped: boolean }> {
  const out: MessageView[] = [];
  let after: number | null = null;
  for (;;) {
    const page: Api['messages'] = await getApi(contentPaths.messages(session, after), signal);
    out.push(...page.messages);
    after = page.next_after_seq;
    if (after === null) return { messages: out, total: page.total, capped: false };
    if (out.length >= MESSAGE_LOG_CAP) return { messages: out, total: page.total, capped: true };
  }
}

/** One call's captured content; null for an SDK call (or a proxy run with `--no-content`). */
export async function fetchCallContent(
  id: number,
  signal?: AbortSignal,
): Promise<CallContent | null> {
  return (await getApi(contentPaths.call(id), signal)).content;
}

/** One group of `GET /api/tools/:name/errors` (`from_content: false` for a stand-in text). */
export type ToolErrorGroup = Api['toolErrors']['groups'][number];
