/**
 * Insights ranked by impact (the server's order). Each reads as one line with its counts —
 * "sync_calendar crashed on 14 of 14 calls" — and a sentence under it saying what that means;
 * the line opens the calls it is about, and the tool name opens the tool.
 */
import type { Insight } from '../api/types';
import { useFilters } from '../app/filters';
import { Link } from '../app/router';
import { ToolLink } from './ToolLink';
import './insights.css';

/** Labels of the kinds known today; a kind added later shows its own name. */
const KIND_LABEL: Record<string, string> = {
  crashes: 'Crashes',
  error_rate: 'Tool errors',
  bad_args_streak: 'Bad arguments',
  low_first_call_success: 'Low first-call success',
  empty_results: 'Empty results',
  slow_calls: 'Slow calls',
  heavy_payload: 'Heavy payload',
  dead_tool: 'Never used',
  first_call_error: 'First-call error',
};

/** The calls-page conditions that select the calls an insight is about (null: no calls). */
const CALLS_OF: Record<string, Record<string, string> | null> = {
  crashes: { outcome: 'crashed' },
  error_rate: { outcome: 'tool_error' },
  bad_args_streak: { outcome: 'bad_args' },
  low_first_call_success: { first_call_success: 'false' },
  empty_results: { outcome: 'empty' },
  slow_calls: { latency: 'over_2000' },
  heavy_payload: {},
  // A tool that was never called has no calls to show: its page says what it registered.
  dead_tool: null,
  // The failing first calls, whose error text the insight quotes (proxied calls).
  first_call_error: { first_call_success: 'false' },
};

/**
 * The ranked insights; `limit` of them, then a link to the full list on the Tools page
 * (`moreHref` null: this is the full list).
 */
export function InsightList({
  insights,
  limit = 5,
  full = false,
}: {
  insights: Insight[];
  limit?: number;
  /** The complete list (the Tools page): no "more" link. */
  full?: boolean;
}) {
  const { link } = useFilters();
  if (insights.length === 0) {
    return (
      <div className="insights-empty" role="status">
        Nothing to fix in this view: no failures, and every tool with 20 calls here is within the
        hosted thresholds.
      </div>
    );
  }
  const shown = full ? insights : insights.slice(0, limit);
  return (
    <ol className="insights" data-testid="insights">
      {shown.map((i) => {
        const conditions = CALLS_OF[i.kind] === undefined ? {} : CALLS_OF[i.kind];
        const href = conditions
          ? link('/calls', { tool: i.tool, ...conditions })
          : link('/tool', { name: i.tool });
        return (
          <li
            key={i.id}
            className={`insight sev-${i.severity}`}
            data-insight={i.kind}
            data-tool={i.tool}
          >
            <span className={`sev ${i.severity}`}>{i.severity}</span>
            <div className="insight-body">
              <Link href={href} className="insight-title">
                <bdi>{i.title}</bdi>
              </Link>
              <div className="insight-detail">{i.detail}</div>
              <div className="insight-kind">
                {KIND_LABEL[i.kind] ?? i.kind} · <ToolLink name={i.tool} />
              </div>
            </div>
            <Link href={href} className="insight-go" aria-hidden="true" tabIndex={-1}>
              {conditions ? 'calls →' : 'tool →'}
            </Link>
          </li>
        );
      })}
      {!full && insights.length > limit && (
        <li className="insight more">
          <Link href={link('/tools') + '#insights'}>
            +{insights.length - limit} more {insights.length - limit === 1 ? 'insight' : 'insights'}{' '}
            on the Tools page
          </Link>
        </li>
      )}
    </ol>
  );
}
