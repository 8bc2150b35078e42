/**
 * What the message log computes from a session's messages: filtering by method, kind and body
 * text, the request that an answer answers (and back), and bodies made readable. Pure, so the
 * log stays a thin view over it.
 */
import type { MessageKind, MessageView } from '../../api/content';
import { prettyJsonCapped, type CappedJson } from '../../../../src/shared/deep-json';

/** The log's filters; empty values match everything. */
export interface MessageFilter {
  method: string;
  kind: MessageKind | '';
  /** Case-insensitive text to find inside bodies (or the method). */
  q: string;
}

export const NO_FILTER: MessageFilter = { method: '', kind: '', q: '' };

/** The messages that pass `f`, in order. */
export function filterMessages(messages: MessageView[], f: MessageFilter): MessageView[] {
  const q = f.q.trim().toLowerCase();
  if (!f.method && !f.kind && !q) return messages;
  return messages.filter(
    (m) =>
      (!f.method || m.method === f.method) &&
      (!f.kind || m.kind === f.kind) &&
      (!q || m.body.toLowerCase().includes(q) || (m.method ?? '').toLowerCase().includes(q)),
  );
}

/** The distinct methods of a session with how often each appears, most frequent first. */
export function methodCounts(messages: MessageView[]): { method: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const m of messages) if (m.method) counts.set(m.method, (counts.get(m.method) ?? 0) + 1);
  return [...counts]
    .map(([method, count]) => ({ method, count }))
    .sort((a, b) => b.count - a.count || a.method.localeCompare(b.method));
}

/** A request and its answer (either may be missing: a notification, an unanswered request). */
export interface MessagePair {
  request: MessageView | undefined;
  answer: MessageView | undefined;
  /** answer − request, when both are there. */
  ms: number | null;
}

const isAnswer = (m: MessageView): boolean => m.kind === 'result' || m.kind === 'error';

/**
 * The pair `m` belongs to. JSON-RPC ids are unique per sender among requests in flight, so the
 * answer to a client request is the next server answer with its id (and the other way round for
 * a server-to-client request); an id reused later pairs with its own, later answer.
 */
export function pairOf(messages: MessageView[], m: MessageView): MessagePair {
  if (m.rpc_id === null || m.kind === 'notification')
    return { request: m, answer: undefined, ms: null };
  const at = messages.indexOf(m);
  let request: MessageView | undefined;
  let answer: MessageView | undefined;
  if (m.kind === 'request') {
    request = m;
    for (let i = at + 1; i < messages.length; i++) {
      const x = messages[i]!;
      if (x.rpc_id === m.rpc_id && x.direction !== m.direction && isAnswer(x)) {
        answer = x;
        break;
      }
    }
  } else {
    answer = m;
    for (let i = at - 1; i >= 0; i--) {
      const x = messages[i]!;
      if (x.rpc_id === m.rpc_id && x.direction !== m.direction && x.kind === 'request') {
        request = x;
        break;
      }
    }
  }
  const ms = request && answer ? answer.at_ms - request.at_ms : null;
  return { request, answer, ms };
}

/**
 * A body as indented JSON down to SHOWN_JSON_DEPTH levels (deeper containers said as "…N deeper
 * levels not shown"), or as sent when it is not JSON (a truncated body never is). Never
 * recursive: a 10,000-deep answer used to throw "Maximum call stack size exceeded" here and
 * blank the page.
 */
export function prettyBody(text: string | null): CappedJson {
  if (text === null) return { text: '', hiddenLevels: 0, depth: 0 };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { text, hiddenLevels: 0, depth: 0 };
  }
  return prettyJsonCapped(value);
}

/** {@link prettyBody}'s text. */
export const prettyJson = (text: string | null): string => prettyBody(text).text;

/** `+1.234 s` since the session's first message; ms below a second, `+m:ss.sss` past a minute. */
export function offsetText(ms: number): string {
  if (ms < 1000) return `+${Math.round(ms)} ms`;
  if (ms < 60_000) return `+${(ms / 1000).toFixed(3)} s`;
  // Past a minute, clock style (`+1:20.000`, `+62:05.300`): it fits the column.
  const m = Math.floor(ms / 60_000);
  return `+${m}:${((ms % 60_000) / 1000).toFixed(3).padStart(6, '0')}`;
}

/** 812 B, 3.4 KB, 1.2 MB. */
export function bytesText(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The parts of a `tools/call` result a reader wants: its text parts and structured content. */
export interface AnswerParts {
  texts: string[];
  /** Parts that are not text (images, resources), by type. */
  others: string[];
  structured: string | null;
  isError: boolean;
}

/** Reads a result's JSON text (the `result` object, or a whole JSON-RPC answer). */
export function answerParts(resultText: string | null): AnswerParts | null {
  if (resultText === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(resultText);
  } catch {
    return null;
  }
  const rec = (v: unknown): Record<string, unknown> | null =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : null;
  let r = rec(value);
  if (r && 'result' in r && rec(r.result)) r = rec(r.result);
  if (!r) return null;
  const texts: string[] = [];
  const others: string[] = [];
  if (Array.isArray(r.content)) {
    for (const part of r.content) {
      const p = rec(part);
      if (p?.type === 'text' && typeof p.text === 'string') texts.push(p.text);
      else others.push(typeof p?.type === 'string' ? p.type : 'unknown');
    }
  }
  const structured =
    r.structuredContent === undefined ? null : prettyJsonCapped(r.structuredContent).text;
  return { texts, others, structured, isError: r.isError === true };
}

/**
 * The seqs missing between the first and last message of a fully loaded session, at most
 * `limit` of them (and how many in all). A message the proxy could not keep (too deep to
 * redact) is on the Ingest log instead; one lost to a relay gap was never seen.
 */
export function missingSeqs(messages: MessageView[], limit = 5): { seqs: number[]; count: number } {
  const seqs: number[] = [];
  let count = 0;
  for (let i = 1; i < messages.length; i++) {
    for (let s = messages[i - 1]!.seq + 1; s < messages[i]!.seq; s++) {
      count++;
      if (seqs.length < limit) seqs.push(s);
    }
  }
  return { seqs, count };
}
