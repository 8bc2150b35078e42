/**
 * Insights with the hosted thresholds, ranked (most severe first). Each opens the calls it is
 * about — the failing first calls, the empty results, the slow calls — and names its tool
 * with a link to the tool's page.
 */
import type { Insight } from '../api/types';
import { useFilters } from '../app/filters';
import { Link } from '../app/router';
import { ToolLink } from './ToolLink';
import './insights.css';

const KIND_LABEL: Record<Insight['kind'], string> = {
  low_first_call_success: 'Low first-call success',
  empty_results: 'Empty results',
  slow_calls: 'Slow calls',
  heavy_payload: 'Heavy payload',
  dead_tool: 'Never used',
  first_call_error: 'First-call error',
};

/** The calls-page conditions that select the calls an insight is about. */
const CALLS_OF: Record<Insight['kind'], Record<string, string> | null> = {
  low_first_call_success: { first_call_success: 'false' },
  empty_results: { outcome: 'empty' },
  slow_calls: { latency: 'over_2000' },
  heavy_payload: {},
  // A tool that was never called has no calls to show: its page says what it registered.
  dead_tool: null,
  // The failing first calls, whose error text the insight quotes (proxied calls).
  first_call_error: { first_call_success: 'false' },
};

export function InsightList({ insights, limit = 5 }: { insights: Insight[]; limit?: number }) {
  const { link } = useFilters();
  if (insights.length === 0) {
    return (
      <div className="insights-empty" role="status">
        Nothing to fix in this view. Insights apply the hosted thresholds once a tool has 20 calls
        here.
      </div>
    );
  }
  return (
    <ol className="insights" data-testid="insights">
      {insights.slice(0, limit).map((i) => {
        const conditions = CALLS_OF[i.kind];
        const href = conditions
          ? link('/calls', { tool: i.tool, ...conditions })
          : link('/tool', { name: i.tool });
        return (
          <li key={i.id} className={`insight sev-${i.severity}`} data-insight={i.kind}>
            <span className={`sev ${i.severity}`}>{i.severity}</span>
            <div className="insight-body">
              <div className="insight-kind">
                {KIND_LABEL[i.kind] ?? i.kind} · <ToolLink name={i.tool} />
              </div>
              <Link href={href} className="insight-msg" title={i.message}>
                <bdi>{i.message}</bdi>
              </Link>
            </div>
            <Link href={href} className="insight-go" aria-hidden="true" tabIndex={-1}>
              {conditions ? 'calls →' : 'tool →'}
            </Link>
          </li>
        );
      })}
      {insights.length > limit && (
        <li className="insight more">
          <Link href={link('/tools')}>
            +{insights.length - limit} more insights on the Tools page
          </Link>
        </li>
      )}
    </ol>
  );
}
