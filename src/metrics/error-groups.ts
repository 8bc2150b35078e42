/**
 * A tool's failing calls grouped by error text (pure): the question a failing tool raises is
 * "failing with what?", and the proxy's content answers it. How a call's text is decided:
 *
 * - proxied, answered: the answer's error text (src/metrics/call-content.ts `answerError`);
 * - proxied, no answer captured: `<outcome> (no answer captured)`;
 * - proxied, answer truncated before its text: `<outcome> (answer truncated)`;
 * - proxied, answered without error text (a failure the proxy inferred): `<outcome> (the answer carries no error text)`;
 * - an SDK's call: `<outcome> (no content: the SDK sends none)` — SDK telemetry carries only
 *   the outcome, so SDK calls group by outcome; wrap the server with the proxy to see texts.
 */
import type { ErrorGroup, MessageKind } from '../shared/proxy-content.js';
import { answerError } from './call-content.js';

/** What grouping needs to know about one failing call. */
export interface FailingCall {
  id: number;
  session_id: string;
  started_ms: number;
  outcome: string;
  first_call: number;
  has_content: number;
  answer_kind: MessageKind | null;
  answer_body: string | null;
  answer_truncated: number | null;
}

/** A group as the API lists it: the contract's group, and whether its text came from content. */
export interface ErrorGroupView extends ErrorGroup {
  /** True when the text is what the server answered; false for a stand-in (SDK call, no answer). */
  from_content: boolean;
}

/** Error texts longer than this are cut (with `…`) before grouping: the start says what failed. */
export const ERROR_TEXT_MAX_CHARS = 500;

/** The text that stands for an SDK call's failure, which carries no content. */
export const noContentText = (outcome: string): string =>
  `${outcome} (no content: the SDK sends none)`;

/** The error text a failing call is grouped under, and whether it came from content. */
export function errorTextOf(c: FailingCall): { text: string; fromContent: boolean } {
  if (!c.has_content) return { text: noContentText(c.outcome), fromContent: false };
  if (c.answer_kind === null || c.answer_body === null)
    return { text: `${c.outcome} (no answer captured)`, fromContent: false };
  const text = answerError({ kind: c.answer_kind, body: c.answer_body });
  if (text === null) {
    const cut = c.answer_truncated === 1;
    return {
      text: cut
        ? `${c.outcome} (answer truncated)`
        : `${c.outcome} (the answer carries no error text)`,
      fromContent: false,
    };
  }
  const trimmed = text.trim();
  return {
    text:
      trimmed.length > ERROR_TEXT_MAX_CHARS
        ? `${trimmed.slice(0, ERROR_TEXT_MAX_CHARS)}…`
        : trimmed,
    fromContent: true,
  };
}

/**
 * Groups failing calls (oldest first) by error text: most calls first, then the most recent.
 * The example call of a group is its latest.
 */
export function groupErrors(calls: readonly FailingCall[]): ErrorGroupView[] {
  const groups = new Map<string, ErrorGroupView & { last_ms: number }>();
  for (const c of calls) {
    const { text, fromContent } = errorTextOf(c);
    const at = new Date(c.started_ms).toISOString();
    let g = groups.get(text);
    if (!g) {
      g = {
        message: text,
        count: 0,
        first_calls: 0,
        outcomes: {},
        first_at: at,
        last_at: at,
        last_ms: c.started_ms,
        example_call_id: c.id,
        example_session_id: c.session_id,
        from_content: fromContent,
      };
      groups.set(text, g);
    }
    g.count++;
    g.first_calls += c.first_call ? 1 : 0;
    g.outcomes[c.outcome] = (g.outcomes[c.outcome] ?? 0) + 1;
    if (c.started_ms >= g.last_ms) {
      g.last_ms = c.started_ms;
      g.last_at = at;
      g.example_call_id = c.id;
      g.example_session_id = c.session_id;
    }
    if (at < g.first_at) g.first_at = at;
  }
  return [...groups.values()]
    .sort((a, b) => b.count - a.count || b.last_ms - a.last_ms || (a.message < b.message ? -1 : 1))
    .map(({ last_ms: _l, ...g }) => g);
}
