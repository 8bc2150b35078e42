/**
 * What `replay` re-sends: a proxied session's tool calls in order, each with the arguments
 * the proxy captured and what happened then (outcome, duration, answer text), and how the
 * client introduced itself at `initialize`. Read through the API's own operations, from the
 * database file (in-process) or a running dashboard (`--url`).
 */
import type { Api } from '../../api/handlers.js';
import { textParts } from '../../metrics/call-content.js';
import type { ApiName, ApiParams } from '../../shared/api-routes.js';
import type { Outcome } from '../../shared/outcomes.js';
import { PROXY_SDK_NAME } from '../../proxy/index.js';
import { prog } from '../invocation.js';

/** Asks one API operation (callApi over a store, or getRemote over HTTP). */
export type Ask = <K extends ApiName>(name: K, params: ApiParams) => Promise<Api[K]>;

/** What happened to a call: recorded, or on replay. */
export interface CallResult {
  outcome: Outcome;
  duration_ms: number;
  /** The error text, or the text parts of the answer; null when it had none. */
  text: string | null;
}

/** One recorded tool call. */
export interface RecordedCall {
  /** 1-based position in the session. */
  index: number;
  call_id: number;
  tool: string;
  /** Parsed arguments; null when the call had none or they cannot be replayed. */
  arguments: Record<string, unknown> | null;
  /** Why this call is not re-sent (no content, arguments cut at the cap); null when it is. */
  skip: string | null;
  before: CallResult;
}

/** A session ready to replay. */
export interface RecordedSession {
  session: string;
  project_id: number;
  client: { name: string; version: string };
  capabilities: Record<string, unknown>;
  /** The protocol version the client offered; null when not captured. */
  protocol_version: string | null;
  calls: RecordedCall[];
}

/** The session cannot be replayed; the message says why and what to do. */
export class ReplayError extends Error {}

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const parseObject = (text: string | null): JsonObject | null => {
  if (text === null) return null;
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
};

/** How the client introduced itself: the captured `initialize` request, else the session facts. */
async function clientOf(ask: Ask, session: string, project: number) {
  const { messages } = await ask('messages', {
    session,
    project,
    method: 'initialize',
    kind: 'request',
    limit: 1,
  });
  const params = parseObject(messages[0]?.body ?? null)?.params;
  if (isObject(params)) {
    const info = isObject(params.clientInfo) ? params.clientInfo : {};
    return {
      client: {
        name: typeof info.name === 'string' ? info.name : 'mcpulse-devtools-replay',
        version: typeof info.version === 'string' ? info.version : '0.0.0',
      },
      capabilities: isObject(params.capabilities) ? params.capabilities : {},
      protocol_version: typeof params.protocolVersion === 'string' ? params.protocolVersion : null,
    };
  }
  const { proxy } = await ask('session', { id: session, project });
  return {
    client: {
      name: proxy?.client.name ?? 'mcpulse-devtools-replay',
      version: proxy?.client.version ?? '0.0.0',
    },
    capabilities: proxy?.client.capabilities ?? {},
    protocol_version: proxy?.protocol_version ?? null,
  };
}

/** Loads session `session` (in `project` when given) for replay; throws {@link ReplayError}. */
export async function loadRecordedSession(
  ask: Ask,
  session: string,
  project?: string,
): Promise<RecordedSession> {
  const { calls } = await ask('calls', { session, project, order: 'asc', limit: 10_000 });
  if (calls.length === 0)
    throw new ReplayError(
      `no calls recorded for session '${session}'${project ? ` in project ${project}` : ''}`,
    );
  const projectId = calls[0]!.project_id;
  const own = calls.filter((c) => c.project_id === projectId);
  const recorded: RecordedCall[] = [];
  for (const [i, c] of own.entries()) {
    const { content } = await ask('call', { id: c.id });
    let args: JsonObject | null = null;
    let skip: string | null = null;
    if (!content) skip = 'no content captured';
    else if (content.arguments !== null) {
      args = parseObject(content.arguments);
      if (!args)
        skip = content.truncated
          ? 'arguments cut at the 256 KB cap'
          : 'arguments are not an object';
    }
    const result = parseObject(content?.result ?? null);
    recorded.push({
      index: i + 1,
      call_id: c.id,
      tool: c.tool_name,
      arguments: args,
      skip,
      before: {
        outcome: c.outcome,
        duration_ms: c.duration_ms,
        text: content ? (content.error ?? textParts(result)) : null,
      },
    });
  }
  if (recorded.every((c) => c.skip === 'no content captured')) {
    const { sdk } = await ask('session', { id: session, project: projectId });
    // A proxied session recorded without content says so; an SDK's never has any.
    const why =
      sdk?.name === PROXY_SDK_NAME
        ? `it was proxied with --no-content, which keeps only a hash of the arguments, ` +
          `so there is nothing to re-send. Proxy the server again without --no-content ` +
          `and replay that session.`
        : `an SDK sends only a hash of the arguments, so there is nothing to re-send. Record ` +
          `the session through the proxy (${prog()} proxy -- COMMAND…) and replay that one.`;
    throw new ReplayError(`session '${session}' has no captured content: ${why}`);
  }
  return {
    session,
    project_id: projectId,
    ...(await clientOf(ask, session, projectId)),
    calls: recorded,
  };
}
