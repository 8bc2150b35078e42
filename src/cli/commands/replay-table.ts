/**
 * What changed per re-sent call, and the verdict `replay` exits with: a call got worse when
 * its outcome moved down the order ok → bad_args / tool_error → crashed (an error the server
 * answered is better than no answer). Text and duration changes are shown, never judged.
 */
import type { Outcome } from '../../shared/outcomes.js';
import type { ReplayedCall } from './replay-run.js';
import type { RecordedSession } from './replay-source.js';

/** How good an outcome is: lower is better. */
const RANK: Record<Outcome, number> = { ok: 0, bad_args: 1, tool_error: 1, crashed: 2 };

/** One row of the table. */
export interface ReplayRow {
  index: number;
  call_id: number;
  tool: string;
  change: 'worse' | 'better' | 'changed' | 'same' | 'skipped';
  outcome_before: Outcome;
  outcome_after: Outcome | null;
  duration_before_ms: number;
  duration_after_ms: number | null;
  text_before: string | null;
  text_after: string | null;
  /** "same", or what the answer text became, in short; the skip reason for a skipped call. */
  answer: string;
}

const clip = (text: string | null, max = 40): string => {
  if (text === null) return '(none)';
  const line = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(line.length > max ? `${line.slice(0, max)}…` : line);
};

/** A short account of how the answer text changed. */
const answerChange = (before: string | null, after: string | null): string =>
  before === after ? 'same' : `${clip(before)} → ${clip(after)}`;

/** The rows of the table, in call order. */
export function compareReplay(
  session: RecordedSession,
  results: readonly ReplayedCall[],
): ReplayRow[] {
  return session.calls.map((call, i) => {
    const after = results[i] ?? null;
    const base = {
      index: call.index,
      call_id: call.call_id,
      tool: call.tool,
      outcome_before: call.before.outcome,
      duration_before_ms: call.before.duration_ms,
      text_before: call.before.text,
    };
    if (after === null)
      return {
        ...base,
        change: 'skipped',
        outcome_after: null,
        duration_after_ms: null,
        text_after: null,
        answer: `not re-sent: ${call.skip ?? 'no result'}`,
      };
    const delta = RANK[after.outcome] - RANK[call.before.outcome];
    const change =
      delta > 0
        ? 'worse'
        : delta < 0
          ? 'better'
          : after.outcome !== call.before.outcome || after.text !== call.before.text
            ? 'changed'
            : 'same';
    return {
      ...base,
      change,
      outcome_after: after.outcome,
      duration_after_ms: after.duration_ms,
      text_after: after.text,
      answer: answerChange(call.before.text, after.text),
    };
  });
}

/** The rows as an aligned text table, with a closing count. */
export function formatReplayTable(rows: readonly ReplayRow[]): string {
  const head = ['#', 'call', 'tool', 'change', 'outcome', 'duration', 'answer'];
  const body = rows.map((r) => [
    String(r.index),
    String(r.call_id),
    r.tool,
    r.change === 'worse' ? 'WORSE' : r.change,
    r.outcome_after === null ? r.outcome_before : `${r.outcome_before} → ${r.outcome_after}`,
    r.duration_after_ms === null
      ? `${r.duration_before_ms} ms`
      : `${r.duration_before_ms} → ${r.duration_after_ms} ms`,
    r.answer,
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((row) => row[c]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => (c === cells.length - 1 ? cell : cell.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd();
  const count = (change: ReplayRow['change']) => rows.filter((r) => r.change === change).length;
  return [
    line(head),
    ...body.map(line),
    '',
    `${rows.length} calls: ${count('worse')} worse, ${count('better')} better, ${count('changed')} changed, ${count('same')} same, ${count('skipped')} not re-sent`,
    '',
  ].join('\n');
}
