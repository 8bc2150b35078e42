/** The bad-arguments streaks behind the insights: each tool's latest calls read newest first. */
import type { ToolSummary } from '../metrics/report.js';
import type { MetricsQueries } from '../store/metrics/queries.js';
import type { CallFilter } from '../shared/rows.js';

/** A streak is counted over at most this many of a tool's latest calls. */
const STREAK_WINDOW = 100;

/**
 * Tool → how many of its most recent calls in the view, in a row, were refused for their
 * arguments. Only tools with a bad-args call are read (one small indexed query each).
 */
export function badArgsRunsOf(
  m: MetricsQueries,
  filter: CallFilter,
  tools: readonly ToolSummary[],
): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of tools) {
    if (t.outcomes.bad_args === 0) continue;
    const latest = m.calls({ ...filter, tool: t.name }, {}, { limit: STREAK_WINDOW });
    let run = 0;
    while (run < latest.length && latest[run]!.outcome === 'bad_args') run++;
    out.set(t.name, run);
  }
  return out;
}
