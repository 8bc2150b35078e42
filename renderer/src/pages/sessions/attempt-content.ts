/**
 * What a proxy captured about the attempts of a retry chain: what each attempt got back (the
 * error text, or that the answer was empty) and how the arguments changed before the next one,
 * path by path (`path: "a.txt" → "/abs/a.txt"`), on canonical texts so key order and number
 * spelling never count as a change.
 */
import { analyze } from '../../../../src/canonical/index';
import type { CallContent } from '../../api/content';
import type { CallView } from '../../api/types';
import { answerParts } from '../../components/content/messages';
import { pathChanges, type PathChange } from '../playground/compare-paths';

/** What one attempt got back, in a sentence's worth. */
export type AttemptAnswer =
  | { kind: 'error'; text: string }
  | { kind: 'empty' }
  | { kind: 'text'; text: string }
  | { kind: 'none' };

/** One attempt with its content, and the change of arguments from the previous attempt. */
export interface AttemptContent {
  call: CallView;
  args: string | null;
  answer: AttemptAnswer;
  /** Changes since the previous attempt; null for the first or when either text is missing. */
  changes: PathChange[] | null;
}

function canonicalOf(text: string): string | null {
  try {
    return analyze(text).canonical;
  } catch {
    return null;
  }
}

export function answerOf(call: CallView, content: CallContent | null): AttemptAnswer {
  if (!content) return { kind: 'none' };
  if (content.error !== null) return { kind: 'error', text: content.error };
  const parts = answerParts(content.result);
  if (call.is_empty || (parts && parts.texts.every((t) => t.trim() === '') && !parts.structured))
    return { kind: 'empty' };
  if (parts && parts.texts.length > 0) return { kind: 'text', text: parts.texts.join('\n') };
  return content.result === null ? { kind: 'none' } : { kind: 'text', text: content.result };
}

/** The attempts in order with what each got back and what changed before it. */
export function attemptContents(
  calls: CallView[],
  contents: (CallContent | null)[],
): AttemptContent[] {
  const out: AttemptContent[] = [];
  let prevCanonical: string | null = null;
  calls.forEach((call, i) => {
    const content = contents[i] ?? null;
    const args = content?.arguments ?? null;
    const canonical = args === null ? null : canonicalOf(args);
    const changes =
      i > 0 && prevCanonical !== null && canonical !== null
        ? pathChanges(prevCanonical, canonical)
        : null;
    out.push({ call, args, answer: answerOf(call, content), changes });
    prevCanonical = canonical;
  });
  return out;
}

/** `path: "a.txt" → "/abs/a.txt"`, `limit: added 5`, `dry_run: removed`. */
export function changeText(c: PathChange): string {
  if (c.kind === 'added') return `${c.path}: added ${c.after}`;
  if (c.kind === 'removed') return `${c.path}: removed (was ${c.before})`;
  return `${c.path}: ${c.before} → ${c.after}`;
}
