/**
 * Overview: the four headline numbers with trends, calls over time, outcomes, latency,
 * insights, clients, tool pairs and the live feed. Every number links to the calls behind it.
 */

import { metricsPaths } from '../../api/metrics';
import { useFilters } from '../../app/filters';
import { navigate } from '../../app/router';
import { useAppData } from '../../app/status';
import { bucketName, CallsOverTime } from '../../components/charts/CallsOverTime';
import { LatencyBuckets } from '../../components/charts/LatencyBuckets';
import { InsightList } from '../../components/InsightList';
import { LiveFeed } from '../../components/LiveFeed';
import { OutcomeBar } from '../../components/OutcomeBar';
import { Panel } from '../../components/Panel';
import { StatCard } from '../../components/StatCard';
import { ErrorState, Loading, NoDataYet, StaleBanner } from '../../components/States';
import { useApi } from '../../api/api';
import { fmtInt, fmtMs, fmtPct, fmtUsd } from '../../lib/format';
import { ClientsTable, PairsList } from './OverviewTables';
import './overview.css';

/** The hosted p95 label → the latency bucket whose calls it summarises. */
const P95_BUCKET_KEY: Record<string, string> = {
  '100ms': 'under_100',
  '500ms': 'under_500',
  '2s': 'under_2000',
  '>2s': 'over_2000',
};

export function OverviewPage() {
  const { filters, link } = useFilters();
  const { hasData } = useAppData();
  const summary = useApi(metricsPaths.summary(filters));
  const series = useApi(metricsPaths.timeseries(filters));
  const insights = useApi(metricsPaths.insights(filters));
  const clients = useApi(metricsPaths.clients(filters));
  const pairs = useApi(metricsPaths.pairs(filters));

  if (hasData === false) return <NoDataYet />;
  if (summary.error && !summary.data) return <ErrorState message={summary.error} />;
  const s = summary.data;
  if (!s) return <Loading rows={8} />;
  const points = series.data?.points ?? [];
  const fcs = s.first_call_success;
  const fcsTone =
    fcs.rate === null ? undefined : fcs.rate < 0.5 ? 'bad' : fcs.rate < 0.7 ? 'warn' : 'good';

  return (
    <div className="overview">
      <div className="page-head">
        <h1>Overview</h1>
        <span className="sub" data-testid="overview-sub">
          {fmtInt(s.sessions)} {s.sessions === 1 ? 'session' : 'sessions'} · {fmtInt(s.retries)}{' '}
          retried calls in {fmtInt(s.retry_chains)} retry{' '}
          {s.retry_chains === 1 ? 'chain' : 'chains'}
        </span>
      </div>
      {summary.error && <StaleBanner message={summary.error} />}

      <div className="grid cols-4">
        <StatCard
          testId="card-calls"
          label="Calls"
          value={fmtInt(s.calls)}
          href={link('/calls')}
          sub={`error rate ${fmtPct(s.error_rate)}`}
          trend={points.map((p) => p.calls)}
        />
        <StatCard
          testId="card-fcs"
          label="First-call success"
          value={fmtPct(fcs.rate)}
          tone={fcsTone}
          href={link('/calls', { first_call_success: 'false' })}
          sub={`${fmtInt(fcs.successes)} of ${fmtInt(fcs.calls)} calls`}
          trend={points.map((p) => p.first_call_success.rate)}
        />
        <StatCard
          testId="card-p95"
          label="p95 latency"
          value={fmtMs(s.latency.p95_ms)}
          href={link('/calls', { latency: P95_BUCKET_KEY[s.latency.p95_bucket ?? ''] })}
          sub={`p50 ${fmtMs(s.latency.p50_ms)} · bucket ${s.latency.p95_bucket ?? '—'}`}
          trend={points.map((p) => p.p95_ms)}
        />
        <StatCard
          testId="card-cost"
          label="Cost per session"
          value={fmtUsd(s.cost.cost_per_session_usd)}
          href={link('/sessions', { sort: '-cost' })}
          sub={`${fmtUsd(s.cost.cost_usd)} total`}
          trend={points.map((p) => p.cost_usd ?? null)}
        />
      </div>

      <div className="grid overview-row">
        <Panel
          title="Calls over time"
          className="span-2"
          actions={
            series.data && (
              <span className="panel-note" data-testid="series-bucket">
                {bucketName(series.data.width_ms)}
              </span>
            )
          }
        >
          {points.length ? (
            <CallsOverTime points={points} bucketMs={series.data?.width_ms ?? 3_600_000} />
          ) : series.error ? (
            <div className="muted">{series.error}</div>
          ) : (
            <Loading />
          )}
        </Panel>
        <Panel title="Outcomes">
          <OutcomeBar outcomes={s.outcomes} linkFor={(o) => link('/calls', { outcome: o })} />
        </Panel>
      </div>

      <div className="grid overview-row">
        <Panel title="Latency">
          <LatencyBuckets
            latency={s.latency}
            onBucket={(k) => navigate(link('/calls', { latency: k }))}
          />
        </Panel>
        <Panel title="Insights" flush className="span-2">
          {insights.data ? (
            <InsightList insights={insights.data.insights} />
          ) : insights.error ? (
            <ErrorState message={insights.error} />
          ) : (
            <Loading />
          )}
        </Panel>
      </div>

      <div className="grid overview-row">
        <Panel title="Clients" flush>
          {clients.data ? (
            <ClientsTable clients={clients.data.clients} />
          ) : clients.error ? (
            <ErrorState message={clients.error} />
          ) : (
            <Loading />
          )}
        </Panel>
        <Panel title="Tool pairs" flush>
          {pairs.data ? (
            <PairsList pairs={pairs.data.pairs} />
          ) : pairs.error ? (
            <ErrorState message={pairs.error} />
          ) : (
            <Loading />
          )}
        </Panel>
        <Panel title="Live feed" flush>
          <LiveFeed />
        </Panel>
      </div>
    </div>
  );
}
