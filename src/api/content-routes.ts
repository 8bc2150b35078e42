/**
 * The proxy's content: `GET /api/messages?session=ID` (a session's JSON-RPC messages, filtered
 * and paged) and `GET /api/calls/:id` (one call, with its arguments and answer when the proxy
 * captured them). Shapes in docs/api.md, "Proxy content".
 */
import { callContentOf } from '../metrics/call-content.js';
import { MESSAGE_KINDS, type MessageView } from '../shared/proxy-content.js';
import type { StoredMessage } from '../store/proxy-content-read.js';
import { intParam, limitOf, oneOf, refuseBefore } from './params.js';
import { ApiError, type RouteMap } from './types.js';

/** A stored message as the API lists it: without the store's link to its call. */
const messageView = ({ call_started_at: _c, ...m }: StoredMessage): MessageView => m;

/** A positive row id from a path segment, or a 400 naming it. */
function idParam(value: string | undefined, name: string): number {
  const n = /^\d{1,16}$/.test(value ?? '') ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new ApiError(
      400,
      `${name}: expected a call id (a positive integer), received '${(value ?? '').slice(0, 80)}'`,
    );
  return n;
}

export const contentRoutes = {
  'GET /api/messages': ({ store, filter, query }) => {
    const session = filter.session;
    if (!session) throw new ApiError(400, 'session: give the session whose messages to list');
    refuseBefore(query, '/api/messages', 'after_seq');
    const limit = limitOf(query, 1000, 5000);
    const content = store.read.content;
    const projectId = content.sessionProject(session, filter.projectId);
    const empty = {
      session,
      project_id: projectId ?? null,
      total: 0,
      messages: [] as MessageView[],
      next_after_seq: null as number | null,
    };
    if (projectId === undefined) return empty;
    const rows = content.messages({
      projectId,
      session,
      kind: query.get('kind') ? oneOf(query, 'kind', MESSAGE_KINDS, 'request') : undefined,
      method: query.get('method') || undefined,
      q: query.get('q') || undefined,
      afterSeq: intParam(query, 'after_seq'),
      limit,
    });
    return {
      ...empty,
      total: content.messageCount(projectId, session),
      messages: rows.map(messageView),
      // A full page may have more behind it; pass this back as after_seq.
      next_after_seq: rows.length === limit ? rows.at(-1)!.seq : null,
    };
  },

  'GET /api/calls/:id': ({ store, filter, params }) => {
    const id = idParam(params.id, 'id');
    const call = store.read.call(id);
    if (!call || (filter.projectId !== undefined && call.project_id !== filter.projectId))
      throw new ApiError(
        404,
        `no call ${id}${filter.projectId !== undefined ? ' in this project' : ''}`,
      );
    const messages = store.read.content.callMessages(
      call.project_id,
      call.session_id,
      call.started_at,
    );
    // The call's own fields as the calls list has them, plus what the proxy captured (or null).
    return {
      ...call,
      content: callContentOf(messages, call.tool_name, store.read.sameStartBefore(call)),
    };
  },
} satisfies RouteMap;
