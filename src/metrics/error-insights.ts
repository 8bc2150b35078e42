/**
 * The content insight: for each tool, the most common error text among its failing first
 * calls — "search_issues: 7 of 9 first calls failed with 'Invalid date format: use
 * YYYY-MM-DD'". Only texts the server actually answered count (proxied calls): an SDK's call
 * carries no text, and its failing first calls are already `low_first_call_success`.
 *
 * Kept apart from src/metrics/insights.ts (the ranking of the count-based insights) so either
 * can change alone; {@link mergeInsights} places these among the others by severity.
 */
import type { ErrorGroupView } from './error-groups.js';

/** A tool needs this many first calls in the view before its first-call errors are an insight. */
export const FIRST_CALL_ERROR_MIN_FIRST_CALLS = 3;
/** …and the text must stand behind at least this many of them. */
export const FIRST_CALL_ERROR_MIN_CALLS = 2;
/** Share of the tool's first calls failing with the text: at or above `high` → high, `medium` → medium, else low. */
export const FIRST_CALL_ERROR_SHARE = { medium: 0.25, high: 0.5 } as const;

type Severity = 'high' | 'medium' | 'low';

/** One first-call-error insight, in the same shape as the count-based insights. */
export interface FirstCallErrorInsight {
  /** `first_call_error:<tool>`. */
  id: string;
  kind: 'first_call_error';
  severity: Severity;
  tool: string;
  /** Share of the tool's first calls that failed with this text. */
  value: number;
  /** The share threshold crossed (null for low). */
  threshold: number | null;
  /** The tool's first calls in the view (the denominator). */
  calls: number;
  /** First calls that failed with this text (what ranks it among equals). */
  size: number;
  message: string;
  /** The error text, whole (the message quotes it cut to 120 characters). */
  error: string;
  example_call_id: number;
  example_session_id: string;
}

const quote = (text: string): string => {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
};

/**
 * The insight of each tool whose most common content error among first calls passes the
 * minimums. `groupsByTool`: the tool's groups (src/metrics/error-groups.ts); `firstCalls`:
 * the tool's first calls in the view.
 */
export function firstCallErrorInsights(
  groupsByTool: ReadonlyMap<string, readonly ErrorGroupView[]>,
  firstCalls: ReadonlyMap<string, number>,
): FirstCallErrorInsight[] {
  const out: FirstCallErrorInsight[] = [];
  for (const [tool, groups] of groupsByTool) {
    const total = firstCalls.get(tool) ?? 0;
    if (total < FIRST_CALL_ERROR_MIN_FIRST_CALLS) continue;
    const top = groups
      .filter((g) => g.from_content && g.first_calls > 0)
      .sort((a, b) => b.first_calls - a.first_calls || b.count - a.count)[0];
    if (!top || top.first_calls < FIRST_CALL_ERROR_MIN_CALLS) continue;
    const share = top.first_calls / total;
    const severity: Severity =
      share >= FIRST_CALL_ERROR_SHARE.high
        ? 'high'
        : share >= FIRST_CALL_ERROR_SHARE.medium
          ? 'medium'
          : 'low';
    out.push({
      id: `first_call_error:${tool}`,
      kind: 'first_call_error',
      severity,
      tool,
      value: share,
      threshold: severity === 'low' ? null : FIRST_CALL_ERROR_SHARE[severity],
      calls: total,
      size: top.first_calls,
      message: `${tool}: ${top.first_calls} of ${total} first calls failed with '${quote(top.message)}'`,
      error: top.message,
      example_call_id: top.example_call_id,
      example_session_id: top.example_session_id,
    });
  }
  return out;
}

const SEVERITY_RANK: Record<Severity, number> = { high: 0, medium: 1, low: 2 };

/**
 * The count-based insights (already ranked) with the content ones placed by severity: each
 * content insight goes after the last insight of its severity or above, so the existing
 * ranking is kept as it is.
 */
export function mergeInsights<T extends { severity: Severity }>(
  ranked: readonly T[],
  extra: readonly FirstCallErrorInsight[],
): (T | FirstCallErrorInsight)[] {
  const out: (T | FirstCallErrorInsight)[] = [...ranked];
  const sorted = [...extra].sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      b.size - a.size ||
      (a.tool < b.tool ? -1 : 1),
  );
  for (const insight of sorted) {
    let at = 0;
    while (at < out.length && SEVERITY_RANK[out[at]!.severity] <= SEVERITY_RANK[insight.severity])
      at++;
    out.splice(at, 0, insight);
  }
  return out;
}
