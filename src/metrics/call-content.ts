/**
 * A proxied call's content from the messages the proxy tied to it (pure): the `tools/call`
 * request's arguments, the answer's result and the error text a developer needs to see why a
 * call failed — a JSON-RPC error's message, or the text parts of an `isError` result.
 */
import { stringifyJson } from '../shared/deep-json.js';
import type { CallContent, MessageView } from '../shared/proxy-content.js';

type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body parsed as a JSON object; null when it is not one (a truncated body). */
export function parseBody(body: string): JsonObject | null {
  try {
    const v: unknown = JSON.parse(body);
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

/** The text parts of a tool result's `content`, joined by newlines; null when there are none. */
export function textParts(result: unknown): string | null {
  if (!isObject(result) || !Array.isArray(result.content)) return null;
  const texts = result.content
    .filter((p): p is JsonObject => isObject(p) && p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text as string);
  return texts.length > 0 ? texts.join('\n') : null;
}

/** Said for an `isError` result that carries no text part. */
export const ERROR_WITHOUT_TEXT = 'isError result with no text part';

/**
 * The error an answer carries: a JSON-RPC error's `message` (its JSON when it has none), the
 * text parts of an `isError: true` result, or null for a successful answer. A truncated body
 * that cannot be parsed yields null: its text is cut, not known.
 */
export function answerError(answer: Pick<MessageView, 'kind' | 'body'>): string | null {
  const body = parseBody(answer.body);
  if (!body) return null;
  if (answer.kind === 'error') {
    const error = body.error;
    if (isObject(error) && typeof error.message === 'string' && error.message !== '')
      return error.message;
    return stringifyJson(error ?? null);
  }
  if (answer.kind === 'result' && isObject(body.result) && body.result.isError === true)
    return textParts(body.result) ?? ERROR_WITHOUT_TEXT;
  return null;
}

/** The tool a `tools/call` request asks for, or null. */
export function requestedTool(request: Pick<MessageView, 'body'>): string | null {
  const body = parseBody(request.body);
  const params = body?.params;
  return isObject(params) && typeof params.name === 'string' ? params.name : null;
}

/** The request's `arguments` as JSON text (null when absent); its stored text when cut. */
export function requestArguments(request: Pick<MessageView, 'body' | 'truncated'>): string | null {
  const body = parseBody(request.body);
  if (!body) return request.truncated ? request.body : null;
  const params = body.params;
  return isObject(params) && params.arguments !== undefined
    ? stringifyJson(params.arguments)
    : null;
}

const isRequest = (m: MessageView): boolean =>
  m.direction === 'client' && m.kind === 'request' && m.method === 'tools/call';
const isAnswer = (m: MessageView): boolean =>
  m.direction === 'server' && (m.kind === 'result' || m.kind === 'error');

/**
 * The content of the call to `toolName` among the messages tied to its `started_at` (seq
 * order); null when there are none — an SDK's call, or a proxy that captured nothing.
 * Calls that share a start are told apart by tool and then by order: `ordinal` is how many
 * calls of the same tool with the same start arrived before this one. The answer is the first
 * answer with the request's JSON-RPC id.
 */
export function callContentOf(
  messages: readonly MessageView[],
  toolName: string,
  ordinal = 0,
): CallContent | null {
  if (messages.length === 0) return null;
  const requests = messages.filter(isRequest);
  const named = requests.filter((m) => requestedTool(m) === toolName);
  const request = named[ordinal] ?? named[0] ?? requests[0] ?? null;
  const answers = messages.filter(isAnswer);
  const answer =
    (request
      ? answers.find((m) => m.rpc_id === request.rpc_id && m.seq > request.seq)
      : answers[0]) ?? null;
  let result: string | null = null;
  if (answer?.kind === 'result') {
    const body = parseBody(answer.body);
    // Any depth: a hostile server's 10,000-deep answer overflowed JSON.stringify (a 500).
    result = body ? stringifyJson(body.result ?? null) : answer.body;
  }
  return {
    arguments: request ? requestArguments(request) : null,
    result,
    error: answer ? answerError(answer) : null,
    request_seq: request?.seq ?? null,
    answer_seq: answer?.seq ?? null,
    truncated: Boolean(request?.truncated || answer?.truncated),
  };
}
