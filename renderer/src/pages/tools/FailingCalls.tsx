/**
 * A tool's failing calls, most recent first, grouped by outcome (crashed, tool error, bad
 * arguments), each with a link to its session and the reason the engine gives. A tool that
 * crashed on every call shows those calls here, not only a red bar.
 */
import { metricsPaths } from '../../api/metrics';
import { OUTCOME_LABEL, type CallView, type OutcomeKey } from '../../api/types';
import { useFilters, type Filters } from '../../app/filters';
import { Link } from '../../app/router';
import { Panel } from '../../components/Panel';
import { DataTable } from '../../components/table/DataTable';
import type { Column } from '../../components/table/columns';
import { useApi } from '../../hooks/useApi';
import { SessionNameLink } from '../sessions/SessionNameLink';
import { fmtDateTime, fmtInt, fmtMs, fmtTimeMs } from '../../lib/format';

/** The outcomes that are failures, worst first. */
const FAILURES: OutcomeKey[] = ['crashed', 'tool_error', 'bad_args'];

/** Each group shows this many of its newest calls; the rest are a link away. */
const PER_GROUP = 5;

export function FailingCalls({
  filters,
  tool,
  outcomes,
}: {
  filters: Filters;
  tool: string;
  outcomes: Record<OutcomeKey, number>;
}) {
  const { link } = useFilters();
  const failed = FAILURES.reduce((n, o) => n + outcomes[o], 0);
  const res = useApi(
    failed > 0 ? metricsPaths.calls({ ...filters, tool }, { errors: 'true', limit: 300 }) : null,
  );
  const columns: Column<CallView>[] = [
    {
      key: 'started',
      name: 'Started',
      header: 'Started',
      width: '118px',
      cellClass: 'mono',
      cellTitle: (c) => fmtDateTime(c.started_ms),
      cell: (c) => fmtTimeMs(c.started_ms),
    },
    {
      key: 'session',
      name: 'Session',
      header: 'Session',
      identifying: true,
      cell: (c) => (
        <SessionNameLink call={c} href={link('/session', { id: c.session_id, call: c.id })} />
      ),
    },
    {
      key: 'client',
      name: 'Client',
      header: 'Client',
      width: '120px',
      hideBelow: 700,
      cell: (c) => c.client_name,
    },
    {
      key: 'duration',
      name: 'Duration',
      header: 'Duration',
      num: true,
      width: '84px',
      cell: (c) => fmtMs(c.duration_ms),
    },
  ];
  if (failed === 0)
    return (
      <Panel title="Failing calls">
        <div className="empty-row" data-testid="failing-calls-none">
          No call of {tool} failed in this view.
        </div>
      </Panel>
    );
  const calls = (res.data?.calls ?? []).filter((c) => FAILURES.includes(c.outcome_class));
  return (
    <Panel title={`Failing calls · ${fmtInt(failed)}`} flush>
      <div className="failing-calls" data-testid="failing-calls">
        {FAILURES.filter((o) => outcomes[o] > 0).map((o) => {
          const group = calls.filter((c) => c.outcome_class === o).slice(0, PER_GROUP);
          return (
            <section key={o} className="failing-group" data-outcome={o}>
              <h3>
                <span className={`dot o-${o}`} aria-hidden="true" /> {OUTCOME_LABEL[o]} ·{' '}
                {fmtInt(outcomes[o])}
                <Link href={link('/calls', { tool, outcome: o })} className="failing-all">
                  all {fmtInt(outcomes[o])} →
                </Link>
              </h3>
              {group.length > 0 && (
                <DataTable
                  label={`${OUTCOME_LABEL[o]} calls of ${tool}`}
                  columns={columns}
                  rows={group}
                  rowKey={(c) => c.id}
                  rowProps={(c) => ({ 'data-call': c.id, title: c.reason })}
                  copyValue={(c) => c}
                />
              )}
            </section>
          );
        })}
      </div>
    </Panel>
  );
}
