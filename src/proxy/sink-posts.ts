/**
 * How the sink's held payloads and content become requests, and the exit lines that say what
 * was not delivered before exit (split from sink.ts, which decides when to send).
 */
import {
  MAX_MESSAGES_PER_POST,
  PROXY_CONTENT_PATH,
  type ProxyContent,
  type ProxyMessage,
  type ProxySessionInfo,
  type UnansweredRequest,
} from '../shared/proxy-content.js';
import type { SpooledPost } from './spool.js';
import { stringifyJson } from '../shared/deep-json.js';

/** Counts by kind. */
export interface Tally {
  calls: number;
  startups: number;
  messages: number;
}

/** One request to make, and what it carries. */
export interface Post extends SpooledPost, Tally {}

/** One session's content not yet posted. */
export interface HeldContent {
  messages: ProxyMessage[];
  session?: ProxySessionInfo;
  unanswered?: UnansweredRequest[];
}

/** What happened to the payloads, for the exit line. */
export interface SinkReport {
  added: Tally;
  sent: Tally;
  /** Handed to the spool's poster at exit (they arrive after the proxy is gone). */
  handedOff: Tally;
  /** Lost for good. */
  dropped: Tally;
  /** Why something was lost or handed off, when it was. */
  reason: string | null;
  /** The spool file, when something was handed off. */
  spool: string | null;
}

/** Content per request: at most this many body bytes (and MAX_MESSAGES_PER_POST messages). */
const CONTENT_POST_BYTES = 4 * 1024 * 1024;

/** One session's held content as posts of at most MAX_MESSAGES_PER_POST and ~4 MB each. */
export function contentPosts(sessionId: string, content: HeldContent): Post[] {
  const posts: Post[] = [];
  let part: ProxyContent = { v: 1, session_id: sessionId };
  if (content.session) part.session = content.session;
  let messages: ProxyMessage[] = [];
  let bytes = 0;
  const flush = () => {
    if (messages.length > 0) part.messages = messages;
    if (!part.session && !part.messages && !part.unanswered) return;
    posts.push({
      path: PROXY_CONTENT_PATH,
      body: stringifyJson(part), // capabilities of any depth
      calls: 0,
      startups: 0,
      messages: messages.length,
    });
    part = { v: 1, session_id: sessionId };
    messages = [];
    bytes = 0;
  };
  for (const m of content.messages) {
    if (
      messages.length >= MAX_MESSAGES_PER_POST ||
      (bytes > 0 && bytes + m.body.length > CONTENT_POST_BYTES)
    )
      flush();
    messages.push(m);
    bytes += m.body.length;
  }
  if (content.unanswered?.length) part.unanswered = content.unanswered;
  flush();
  return posts;
}

/**
 * The stderr lines about telemetry not delivered before exit: what was handed off (it arrives
 * after the proxy is gone) and what was lost for good — each exact, or `null` when all arrived.
 */
export function dropLine(report: SinkReport): string | null {
  const say = (t: Tally) =>
    [
      `${t.calls} call${t.calls === 1 ? '' : 's'}`,
      `${t.startups} startup${t.startups === 1 ? '' : 's'}`,
      `${t.messages} message${t.messages === 1 ? '' : 's'}`,
    ].join(', ');
  const any = (t: Tally) => t.calls + t.startups + t.messages > 0;
  let out = '';
  if (any(report.handedOff))
    out += `mcpulse-devtools proxy: handed the telemetry of ${say(report.handedOff)} to a background sender (${report.reason ?? 'not taken in time'}; spool ${report.spool}); the MCP session itself was not affected\n`;
  if (any(report.dropped))
    out += `mcpulse-devtools proxy: dropped the telemetry of ${say(report.dropped)} (${report.reason ?? 'unknown reason'}); the MCP session itself was not affected\n`;
  return out || null;
}
