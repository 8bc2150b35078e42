/**
 * The proxy's content routes (docs/api.md "Proxy content"): the messages of a session, one
 * call's arguments and answer, a tool's failures grouped by error text. The shapes are the
 * contract's own (src/shared/proxy-content.ts); none of this exists for SDK sessions, which
 * send no content.
 */
import type {
  CallContent,
  ErrorGroup,
  MessageKind,
  MessageView,
  ProxySessionInfo,
  UnansweredRequest,
} from '../../../src/shared/proxy-content';
import { getJson } from './http';

export type {
  CallContent,
  ErrorGroup,
  MessageKind,
  MessageView,
  ProxySessionInfo,
  UnansweredRequest,
};

/** One page of `GET /api/messages`. */
export interface MessagesAnswer {
  messages: MessageView[];
}

/** `GET /api/calls/:id`: the call, and its content when a proxy captured it. */
export interface CallAnswer {
  content: CallContent | null;
}

/** `GET /api/tools/:name/errors`. */
export interface ToolErrorsAnswer {
  groups: ErrorGroup[];
}

/** What `GET /api/sessions/:id` adds for a proxied session. */
export interface SessionContentFacts {
  proxy?: ProxySessionInfo | null;
  unanswered?: UnansweredRequest[] | null;
}

/** Messages fetched per request while reading a whole session. */
export const MESSAGE_PAGE = 1000;
/** The message log stops reading past this many (a session of hours can hold more). */
export const MESSAGE_LOG_CAP = 20_000;

export const contentPaths = {
  messages: (session: string, afterSeq?: number) => {
    const q = new URLSearchParams({ session, limit: String(MESSAGE_PAGE) });
    if (afterSeq !== undefined) q.set('after_seq', String(afterSeq));
    return `/api/messages?${q.toString()}`;
  },
  call: (id: number) => `/api/calls/${encodeURIComponent(String(id))}`,
  toolErrors: (name: string, project?: string) =>
    `/api/tools/${encodeURIComponent(name)}/errors${project ? `?project=${encodeURIComponent(project)}` : ''}`,
};

/** Every message of a session in order, page by page, up to MESSAGE_LOG_CAP. */
export async function fetchSessionMessages(
  session: string,
  signal?: AbortSignal,
): Promise<{ messages: MessageView[]; capped: boolean }> {
  const out: MessageView[] = [];
  let after: number | undefined;
  for (;;) {
    const page = (await getJson(contentPaths.messages(session, after), signal)) as MessagesAnswer;
    out.push(...page.messages);
    if (page.messages.length < MESSAGE_PAGE) return { messages: out, capped: false };
    if (out.length >= MESSAGE_LOG_CAP) return { messages: out, capped: true };
    after = page.messages.at(-1)!.seq;
  }
}

/** One call's captured content; null for an SDK call (or a proxy run with `--no-content`). */
export async function fetchCallContent(
  id: number,
  signal?: AbortSignal,
): Promise<CallContent | null> {
  const answer = (await getJson(contentPaths.call(id), signal)) as CallAnswer;
  return answer.content ?? null;
}

/** A tool's failing calls grouped by error text, most frequent first. */
export async function fetchToolErrors(
  name: string,
  project?: string,
  signal?: AbortSignal,
): Promise<ErrorGroup[]> {
  const answer = (await getJson(
    contentPaths.toolErrors(name, project),
    signal,
  )) as ToolErrorsAnswer;
  return answer.groups;
}
