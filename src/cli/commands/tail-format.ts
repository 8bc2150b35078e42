/**
 * How `tail` shows a call: one aligned line (or one JSON object), with the retry mark taken
 * from the metrics engine's own link rule, so tail and the dashboard never disagree on what
 * a retry is.
 */
import { linkKind, type LinkKind } from '../../metrics/links.js';
import type { CallFields } from '../../shared/rows.js';

/** A call as the live stream and the store carry it (the fields tail uses). */
export type TailCall = CallFields;

/** A call plus how it relates to the previous same-tool call of its session. */
export interface MarkedCall {
  call: TailCall;
  /** `retry`: a retry of the previous call; `repeat`: same arguments; `unknown`: unhashable. */
  link: LinkKind;
  previousId: number | null;
}

/**
 * Remembers the latest call per (project, session, tool) and marks each new one against it.
 * A call arriving out of order (older than the remembered one) gets no mark rather than a
 * wrong one; the dashboard, which recomputes from `started_at`, has the exact answer.
 */
export class RetryMarker {
  private readonly last = new Map<string, TailCall>();

  mark(call: TailCall): MarkedCall {
    const key = `${call.project_id}\u0000${call.session_id}\u0000${call.tool_name}`;
    const prev = this.last.get(key);
    if (prev && call.started_ms < prev.started_ms) return { call, link: 'none', previousId: null };
    this.last.set(key, call);
    const link = prev ? linkKind(prev, call) : 'none';
    return { call, link, previousId: link === 'none' ? null : prev!.id };
  }
}

/** ok / empty / bad_args / tool_error / crashed. */
export const outcomeLabel = (c: { outcome: string; is_empty: boolean }): string =>
  c.outcome === 'ok' && c.is_empty ? 'empty' : c.outcome;

function duration(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)}s`;
}

function size(units: number): string {
  if (units < 1000) return `${units}`;
  if (units < 1_000_000) return `${(units / 1000).toFixed(units < 10_000 ? 1 : 0)}k`;
  return `${(units / 1_000_000).toFixed(1)}M`;
}

function clock(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

const MARKS: Record<LinkKind, string> = {
  none: '',
  retry: '↻ retry',
  repeat: '= repeat',
  unknown: '? unhashable',
};

const COLORS: Record<string, string> = {
  ok: '32',
  empty: '33',
  bad_args: '35',
  tool_error: '31',
  crashed: '1;31',
};

/** The column header for text mode. */
export const HEADER = `${'time'.padEnd(12)}  ${'session'.padEnd(14)}  ${'client'.padEnd(18)}  ${'tool'.padEnd(22)}  ${'outcome'.padEnd(10)}  ${'took'.padStart(7)}  ${'size'.padStart(6)}  ${'args_hash'.padEnd(12)}  mark`;

/** One aligned text line; `color` adds ANSI colours for a terminal. */
export function formatLine({ call, link }: MarkedCall, color: boolean): string {
  const outcome = outcomeLabel(call);
  const paint = (code: string | undefined, text: string): string =>
    color && code ? `\x1b[${code}m${text}\x1b[0m` : text;
  const cut = (text: string, width: number): string =>
    text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
  return [
    clock(call.started_ms),
    cut(call.session_id, 14),
    cut(call.client_name, 18),
    cut(call.tool_name, 22),
    paint(COLORS[outcome], outcome.padEnd(10)),
    duration(call.duration_ms).padStart(7),
    size(call.response_bytes).padStart(6),
    call.args_hash.padEnd(12),
    paint(link === 'retry' ? '33' : '2', MARKS[link]),
  ]
    .join('  ')
    .trimEnd();
}

/** One JSON object for `--json`: the call as stored, plus the link to its predecessor. */
export function formatJson({ call, link, previousId }: MarkedCall): string {
  return JSON.stringify({
    ...call,
    outcome_class: outcomeLabel(call),
    link_from_previous: link,
    previous_id: previousId,
  });
}
