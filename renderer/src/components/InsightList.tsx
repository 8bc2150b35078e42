/** Insights with the hosted thresholds, most severe first; each links to the tool it is about. */
import type { Insight } from '../api/types';
import { useFilters } from '../app/filters';
import { Link } from '../app/router';
import './insights.css';

const KIND_LABEL: Record<Insight['kind'], string> = {
  low_first_call_success: 'Low first-call success',
  empty_results: 'Empty results',
  slow_calls: 'Slow calls',
  heavy_payload: 'Heavy payload',
  dead_tool: 'Never used',
};

export function InsightList({ insights, limit = 8 }: { insights: Insight[]; limit?: number }) {
  const { link } = useFilters();
  if (insights.length === 0) {
    return (
      <div className="insights-empty">
        No insights. Tools need 20 calls in this view before the hosted thresholds apply.
      </div>
    );
  }
  return (
    <ul className="insights" data-testid="insights">
      {insights.slice(0, limit).map((i) => (
        <li key={i.id} className={`insight sev-${i.severity}`}>
          <span className={`sev ${i.severity}`}>{i.severity}</span>
          <div className="insight-body">
            <div className="insight-kind">{KIND_LABEL[i.kind] ?? i.kind}</div>
            <Link href={link('/tool', { name: i.tool })} className="insight-msg" title={i.message}>
              <bdi>{i.message}</bdi>
            </Link>
          </div>
        </li>
      ))}
      {insights.length > limit && (
        <li className="insight more">+{insights.length - limit} more on the Tools page</li>
      )}
    </ul>
  );
}
