/**
 * Replaying the proxy's content lines of an export (`import --content`) through the content
 * route's own validation: in-process over the database, or `POST /v1/local/proxy` to a
 * running dashboard. A line is one post, so it is sent as one.
 */
import { createContentIngest } from '../../ingest/index.js';
import { tokenHeaders } from '../../api/remote.js';
import { PROXY_CONTENT_PATH } from '../../shared/proxy-content.js';
import type { Store } from '../../store/index.js';

/** What became of one content line. */
export interface ContentLineResult {
  /** Messages accepted (stored now or already stored). */
  accepted: number;
  /** Messages refused one by one (their reasons are on the ingest log). */
  rejected: number;
  /** Set when the whole line was refused. */
  error?: string;
}

/** Sends one content line (its JSON without the `type` marker). */
export type ContentSender = (post: Record<string, unknown>) => Promise<ContentLineResult>;

const USER_AGENT = 'mcpulse-devtools-import/1';

const resultOf = (
  status: number,
  header: (name: string) => string | undefined,
  error?: string,
): ContentLineResult =>
  status === 202
    ? {
        accepted: Number(header('x-mcpulse-accepted') ?? 0),
        rejected: Number(header('x-mcpulse-rejected') ?? 0),
      }
    : { accepted: 0, rejected: 0, error: `refused (${status}): ${error ?? `HTTP ${status}`}` };

/** In-process: the content route's handler over `store`. */
export function directContentSender(store: Store, key: string): ContentSender {
  const handle = createContentIngest(store);
  return async (post) => {
    const answer = await handle({
      authorization: `Bearer ${key}`,
      contentType: 'application/json',
      userAgent: USER_AGENT,
      body: Buffer.from(JSON.stringify(post), 'utf8'),
      receivedMs: Date.now(),
    });
    return resultOf(answer.status, (n) => answer.headers[n], answer.body?.error);
  };
}

/**
 * Over HTTP to a running dashboard's content route, with its owner `token` (the route's
 * `authorization` is the project key, so the token goes in its own header).
 */
export function httpContentSender(url: string, key: string, token?: string): ContentSender {
  return async (post) => {
    let res: Response;
    try {
      res = await fetch(`${url}${PROXY_CONTENT_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${key}`,
          'user-agent': USER_AGENT,
          ...tokenHeaders(token),
        },
        body: JSON.stringify(post),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      const e = error as { cause?: { code?: string }; message: string };
      return {
        accepted: 0,
        rejected: 0,
        error: `no answer from ${url} (${e.cause?.code ?? e.message})`,
      };
    }
    const body =
      res.status === 202
        ? (await res.body?.cancel(), {})
        : ((await res.json().catch(() => ({}))) as { error?: string });
    return resultOf(
      res.status,
      (n) => res.headers.get(n) ?? undefined,
      (body as { error?: string }).error,
    );
  };
}
