/**
 * Overview: the answer first — the four headline numbers, then the ranked insights (each
 * opening the calls it is about) — then calls over time, outcomes, latency, clients, tool
 * pairs and the live feed. Every number links to the calls behind it; every panel has a
 * loading, an empty, an error and a one-point state.
 */

import { metricsPaths } from '../../api/metrics';
import { useFilters } from '../../app/filters';
import { navigate } from '../../app/router';
import { useAppData } from '../../app/status';
import { bucketName, CallsOverTime } from '../../components/charts/CallsOverTime';
import { LatencyView } from '../../components/charts/LatencyView';
import { ToolAgreements } from '../../components/AgreementList';
import { SeriesClockNote } from '../../components/ClockFlags';
import { InsightList } from '../../components/InsightList';
import { LiveFeed } from '../../components/LiveFeed';
import { OutcomeBar } from '../../components/OutcomeBar';
import { Panel } from '../../components/Panel';
import { StatCard } from '../../components/StatCard';
import {
  ErrorState,
  Loading,
  NoDataYet,
  NoMatch,
  ResourceBody,
  StaleBanner,
} from '../../components/States';
import { useApi } from '../../hooks/useApi';
import { fmtDateTime, fmtInt, fmtMs, fmtPct, fmtUsd, latencyBucketOf } from '../../lib/format';
import { ClientsTable, PairsList } from './OverviewTables';
import './overview.css';

/** Fewer buckets with calls than this is no trend: the cards say "since …" instead. */
export const MIN_TREND_POINTS = 3;

export function OverviewPage() {
  const { filters, link } = useFilters();
  const { hasData } = useAppData();
  const summary = useApi(metricsPaths.summary(filters));
  const series = useApi(metricsPaths.timeseries(filters));
  const insights = useApi(metricsPaths.insights(filters));
  const clients = useApi(metricsPaths.clients(filters));
  const pairs = useApi(metricsPaths.pairs(filters));

  if (hasData === false) return <NoDataYet />;
  if (summary.error && !summary.data)
    return <ErrorState message={summary.error} retry={summary.retry} />;
  const s = summary.data;
  if (!s) return <Loading rows={8} />;
  const points = series.data?.points ?? [];
  const withCalls = points.filter((p) => p.calls > 0);
  // A line through one or two buckets reads as a trend it is not.
  const trendOf = <V,>(pick: (p: (typeof points)[number]) => V): V[] | undefined =>
    withCalls.length >= MIN_TREND_POINTS ? points.map(pick) : undefined;
  const since = withCalls.length > 0 ? withCalls[0]!.start_ms : undefined;
  const trendLabels = points.map((p) => fmtDateTime(p.start_ms));
  const fcs = s.first_call_success;
  const fcsTone =
    fcs.rate === null ? undefined : fcs.rate < 0.5 ? 'bad' : fcs.rate < 0.7 ? 'warn' : 'good';
  const p95Bucket = latencyBucketOf(s.latency.p95_bucket);

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

      {s.calls === 0 ? (
        <NoMatch>Every figure on this page counts calls; none are in this view yet.</NoMatch>
      ) : (
        <>
          <div className="grid cols-4">
            <StatCard
              testId="card-calls"
              label="Calls"
              value={fmtInt(s.calls)}
              href={link('/calls')}
              sub={`error rate ${fmtPct(s.error_rate)}`}
              trend={trendOf((p) => p.calls)}
              trendLabels={trendLabels}
              trendFormat={(v) => `${fmtInt(v)} calls`}
              since={since}
            />
            <StatCard
              testId="card-fcs"
              label="First-call success"
              value={fmtPct(fcs.rate)}
              valueTitle="The call succeeded, was not empty and was not retried."
              tone={fcsTone}
              href={link('/calls', { first_call_success: 'false' })}
              sub={`${fmtInt(fcs.successes)} of ${fmtInt(fcs.calls)} calls`}
              trend={trendOf((p) => p.first_call_success.rate)}
              trendLabels={trendLabels}
              trendFormat={(v) => fmtPct(v)}
            />
            <StatCard
              testId="card-p95"
              label="p95 latency"
              value={fmtMs(s.latency.p95_ms)}
              valueTitle="95 of 100 calls were at least this fast."
              href={link('/calls', { latency: p95Bucket?.key })}
              sub={`${p95Bucket ? `in ${p95Bucket.range}` : 'no bucket'} · p50 ${fmtMs(s.latency.p50_ms)}`}
              trend={trendOf((p) => p.p95_ms)}
              trendLabels={trendLabels}
              trendFormat={(v) => fmtMs(v)}
            />
            <StatCard
              testId="card-cost"
              label="Cost per session"
              value={fmtUsd(s.cost.cost_per_session_usd)}
              href={link('/sessions', { sort: '-cost' })}
              sub={`${fmtUsd(s.cost.cost_usd)} total`}
              trend={trendOf((p) => p.cost_usd ?? null)}
              trendLabels={trendLabels}
              trendFormat={(v) => fmtUsd(v)}
            />
          </div>

          <div className="grid overview-row">
            <Panel title="Insights" flush className="span-2">
              <ResourceBody res={insights} isEmpty={() => false}>
                {(d) => <InsightList insights={d.insights} />}
              </ResourceBody>
            </Panel>
            <Panel title="Outcomes">
              <OutcomeBar outcomes={s.outcomes} linkFor={(o) => link('/calls', { outcome: o })} />
            </Panel>
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
              <ResourceBody res={series} isEmpty={(d) => !d.points.some((p) => p.calls > 0)}>
                {(d) => (
                  <>
                    <CallsOverTime points={d.points} bucketMs={d.width_ms} />
                    {withCalls.length === 1 && since !== undefined && (
                      <div className="chart-caption" data-testid="series-one-point">
                        Every call so far falls in one bucket ({bucketName(d.width_ms)}), since{' '}
                        {fmtDateTime(since)}.
                      </div>
                    )}
                  </>
                )}
              </ResourceBody>
              <SeriesClockNote outliers={series.data?.outliers} />
            </Panel>
            <Panel title="Latency">
              <LatencyView
                latency={s.latency}
                histogram={s.latency.histogram}
                onHostedBucket={(k) => navigate(link('/calls', { latency: k }))}
              />
            </Panel>
          </div>

          <div className="grid overview-row">
            <Panel title="Clients" flush>
              <ResourceBody res={clients} isEmpty={(d) => d.clients.length === 0} what="clients">
                {(d) => <ClientsTable clients={d.clients} />}
              </ResourceBody>
            </Panel>
            <Panel title="Tool pairs" flush>
              <ResourceBody res={pairs} isEmpty={() => false}>
                {(d) => (
                  <>
                    <PairsList pairs={d.pairs} />
                    <ToolAgreements filters={filters} />
                  </>
                )}
              </ResourceBody>
            </Panel>
            <Panel title="Live feed" flush>
              <LiveFeed />
            </Panel>
          </div>
        </>
      )}
    </div>
  );
}
