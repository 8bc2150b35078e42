/**
 * One tool: its numbers and badges, outcome mix, latency and response-size distributions, its
 * retry chains (each linking to its session) and the tools called right before and after it.
 */

import { metricsPaths } from '../../api/metrics';
import { useFilters } from '../../app/filters';
import { Link, navigate, useLocation } from '../../app/router';
import { LatencyBuckets } from '../../components/charts/LatencyBuckets';
import { SizeHistogram } from '../../components/charts/SizeHistogram';
import { ToolAgreements } from '../../components/AgreementList';
import { Name } from '../../components/Name';
import { ToolLink } from '../../components/ToolLink';
import { OutcomeBar } from '../../components/OutcomeBar';
import { Fact } from '../../components/Fact';
import { Panel } from '../../components/Panel';
import { ErrorState, Loading, StaleBanner } from '../../components/States';
import { useApi } from '../../api/api';
import {
  TOKENS_RULE,
  fmtDateTime,
  fmtInt,
  fmtMs,
  fmtPct,
  fmtTokens,
  fmtUnits,
} from '../../lib/format';
import { ToolCauses } from '../../components/content/ToolCauses';
import { ToolBadges } from './tool-badges';
import { ToolFingerprintsLine } from './ToolFingerprints';
import './tool.css';

export function ToolPage() {
  const loc = useLocation();
  const { filters, link } = useFilters();
  const name = loc.params.get('name');
  const res = useApi(name !== null ? metricsPaths.tool(filters, name) : null);
  if (name === null) return <ErrorState message="No tool given. Pick one on the Tools page." />;
  if (res.error && !res.data) return <ErrorState message={res.error} retry={res.retry} />;
  if (!res.data) return <Loading rows={10} />;
  const { tool, latency, sizes, chains, pairs } = res.data;
  const fcsRate = tool.calls ? tool.first_call_successes / tool.calls : null;

  return (
    <div className="tool-page">
      <div className="page-head">
        <Link href={link('/tools')} className="crumb">
          Tools
        </Link>
        <span className="faint">/</span>
        <h1 className="mono tool-title">
          <Name text={tool.name} />
        </h1>
        <ToolBadges tool={tool} />
        <div className="spacer" />
        <Link className="btn" href={link('/calls', { tool: tool.name })}>
          Calls
        </Link>
        <Link className="btn" href={link('/', { tool: tool.name })}>
          Filter overview
        </Link>
      </div>
      {res.error && <StaleBanner message={res.error} />}
      <div className="facts-strip tool-facts" data-testid="tool-facts">
        <Fact
          label="Calls"
          value={fmtInt(tool.calls)}
          href={tool.calls ? link('/calls', { tool: tool.name }) : undefined}
        />
        <Fact
          label="First-call success"
          value={fmtPct(fcsRate)}
          sub={`${tool.first_call_successes} of ${tool.calls}`}
        />
        <Fact label="Retried calls" value={fmtInt(tool.retries)} />
        <Fact
          label="Avg response"
          value={fmtTokens(tool.avg_response_bytes)}
          sub={`${fmtUnits(tool.avg_response_bytes)} UTF-16 units`}
          title={TOKENS_RULE}
        />
        <Fact label="p95 latency" value={fmtMs(tool.p95_ms)} />
        <Fact
          label="Schema"
          value={fmtTokens(tool.schema_bytes)}
          sub={tool.registered ? 'sent every session' : 'not registered'}
          title={TOKENS_RULE}
        />
      </div>
      <ToolFingerprintsLine fp={res.data.fingerprints} />
      <div className="grid cols-3">
        <Panel title="Outcomes">
          <OutcomeBar
            outcomes={tool.outcomes}
            linkFor={(o) => link('/calls', { tool: tool.name, outcome: o })}
          />
        </Panel>
        <Panel title="Latency">
          <LatencyBuckets
            latency={latency}
            height={130}
            onBucket={(k) => navigate(link('/calls', { tool: tool.name, latency: k }))}
          />
        </Panel>
        <Panel title="Response sizes">
          <SizeHistogram
            buckets={sizes.histogram}
            height={170}
            testId="tool-sizes"
            xTitle="Response size (UTF-16 units)"
            yTitle="Calls"
            onBucket={(b) => navigate(link('/calls', { tool: tool.name, size_bucket: b }))}
          />
        </Panel>
      </div>
      <ToolCauses
        tool={tool.name}
        failing={tool.outcomes.bad_args + tool.outcomes.tool_error + tool.outcomes.crashed}
      />
      <div className="grid cols-3 tool-lower">
        <Panel
          title={`Retry chains · ${chains.total} (${chains.resolved} resolved, ${chains.unresolved} unresolved)`}
          flush
          className="span-2"
        >
          {chains.recent.length === 0 ? (
            <div className="empty-row">No retry chains for this tool in this view.</div>
          ) : (
            <div className="table-wrap short">
              <table className="data" data-testid="tool-chains">
                <colgroup>
                  <col className="w-when" />
                  <col />
                  <col className="w-n" />
                  <col className="w-n" />
                  <col className="w-n" />
                  <col className="w-state" />
                </colgroup>
                <thead>
                  <tr>
                    <th>Started</th>
                    <th>Session</th>
                    <th className="num">Calls</th>
                    <th className="num">Retries</th>
                    <th className="num">Span</th>
                    <th>Result</th>
                  </tr>
                </thead>
                <tbody>
                  {chains.recent.map((ch) => (
                    <tr key={ch.id}>
                      <td>{fmtDateTime(ch.started_ms)}</td>
                      <td className="mono">
                        <Link href={link('/session', { id: ch.session_id, call: ch.id })}>
                          <Name text={ch.session_id} />
                        </Link>
                      </td>
                      <td className="num">{ch.call_count}</td>
                      <td className="num">{ch.retries}</td>
                      <td className="num">{fmtMs(ch.last_started_ms - ch.started_ms)}</td>
                      <td>
                        <span className={`badge ${ch.resolved ? 'ok' : 'danger'}`}>
                          {ch.resolved ? 'resolved' : 'unresolved'}
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Panel>
        <Panel title="Called around it" flush>
          <PairColumn title="Called just before it" pairs={pairs.incoming} />
          <PairColumn title="Called right after it" pairs={pairs.outgoing} />
          <ToolAgreements filters={filters} tool={name ?? undefined} />
        </Panel>
      </div>
    </div>
  );
}

function PairColumn({ title, pairs }: { title: string; pairs: { tool: string; count: number }[] }) {
  return (
    <div className="pair-col">
      <h3>{title}</h3>
      {pairs.length === 0 ? (
        <div className="faint small-pad">none</div>
      ) : (
        <ul>
          {pairs.slice(0, 8).map((p) => (
            <li key={p.tool}>
              <ToolLink name={p.tool} />
              <span className="num">{fmtInt(p.count)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
