/**
 * One session: its numbers, a timeline of its calls with retry chains drawn as linked groups,
 * the chains spelled out, and every call with why it is or is not a first-call success.
 */
import { useCallback, useEffect, useMemo } from 'react';
import { useFilters } from '../../app/filters';
import { hrefOf, Link, navigate, useLocation, withParams } from '../../app/router';
import { ClockFlag } from '../../components/ClockFlags';
import { CopyButton } from '../../components/CopyButton';
import { ExportMenu } from '../../components/ExportMenu';
import { Fact } from '../../components/Fact';
import { CallDetails } from '../../components/details/CallDetails';
import { MessageLog } from '../../components/content/MessageLog';
import { SessionProxyInfo } from '../../components/content/SessionProxyInfo';
import { Panel } from '../../components/Panel';
import { isProxied, ProxiedBadge, ProxiedNote } from '../../components/ProxiedBadge';
import { ErrorState, Loading, StaleBanner } from '../../components/States';
import { Timeline } from '../../components/timeline/Timeline';
import { useListNav } from '../../hooks/useHotkeys';
import { fmtDateTime, fmtInt, fmtMs, fmtPct, fmtUsd } from '../../lib/format';
import { ChainList } from './ChainList';
import { LostBatchNotice } from './LostBatchNotice';
import { SessionCallsTable } from './SessionCallsTable';
import { sessionTitle } from './session-title';
import { SdkLine, SessionAgreements } from './SessionSdk';
import { useSession } from './useSession';
import './session.css';

export function SessionPage() {
  const loc = useLocation();
  const { filters, link } = useFilters();
  const id = loc.params.get('id');
  const callParam = Number(loc.params.get('call')) || undefined;
  const res = useSession(filters, id);
  const calls = useMemo(() => res.data?.calls ?? [], [res.data]);
  const selectCall = useCallback(
    (callId: number | undefined) =>
      navigate(hrefOf('/session', withParams(loc.params, { call: callId })), { replace: true }),
    [loc.params],
  );
  const selectedIndex = calls.findIndex((c) => c.id === callParam);
  const [nav, setNav] = useListNav(
    calls.length,
    useCallback((i: number) => selectCall(calls[i]?.id), [calls, selectCall]),
  );
  // One selection: j/k move it and the details follow; a click or a link (`?call=`) moves it too.
  useEffect(() => {
    const id = calls[nav]?.id;
    if (nav >= 0 && id !== undefined && id !== callParam) selectCall(id);
    // Only a keyboard move starts this; the URL side is handled below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nav]);
  useEffect(() => {
    if (selectedIndex >= 0 && selectedIndex !== nav) setNav(selectedIndex);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedIndex]);

  if (!id) return <ErrorState message="No session given. Pick one on the Sessions page." />;
  if (res.error && !res.data)
    return (
      <ErrorState
        message={
          res.error.includes('404') || res.error.toLowerCase().includes('not found')
            ? `Session ${id} is not in this view. It may belong to another project or time range.`
            : res.error
        }
      />
    );
  if (!res.data) return <Loading rows={10} />;
  const { session, chains } = res.data;
  const fcs = session.first_call_success;

  return (
    <div className="session-page">
      <div className="page-head">
        <Link href={link('/sessions')} className="crumb">
          Sessions
        </Link>
        <span className="faint">/</span>
        {/* The heading is the session's name and its id: both identify it. */}
        <h1 className="session-name" title={`${sessionTitle(session)} · ${session.id}`}>
          <bdi dir="auto">{sessionTitle(session)}</bdi>{' '}
          <span className="mono session-id">{session.id}</span>
        </h1>
        <CopyButton text={session.id} label="Copy id" />
        <ProxiedBadge sdk={session.sdk} />
        <ClockFlag suspect={session.clock_suspect} />
        <div className="spacer" />
        <Link className="btn" href={link('/calls', { session: session.id })}>
          Raw calls
        </Link>
        <Link className="btn" href={link('/sessions', { compare: session.id })}>
          Compare…
        </Link>
        {/* The whole session, whatever the range: its own project, no time or tool filter. */}
        <ExportMenu
          filters={{ project: filters.project ?? String(session.project_id) }}
          session={session.id}
          testId="session-export"
        />
      </div>
      {res.error && <StaleBanner message={res.error} />}
      <ProxiedNote sdk={session.sdk} />
      <LostBatchNotice sessionId={session.id} projectId={session.project_id} />

      <div className="facts-strip" data-testid="session-facts">
        <Fact
          label="Calls"
          value={fmtInt(session.calls)}
          href={link('/calls', { session: session.id })}
        />
        <Fact
          label="First-call success"
          value={fmtPct(fcs.rate)}
          sub={`${fcs.successes} of ${fcs.calls}`}
          testId="session-fcs"
        />
        <Fact
          label="Retried calls"
          value={fmtInt(session.retries)}
          href={
            session.retries ? link('/calls', { session: session.id, retried: 'true' }) : undefined
          }
        />
        <Fact
          label="Retry chains"
          value={fmtInt(chains.length)}
          sub={`${chains.filter((c) => c.resolved).length} resolved`}
          testId="session-chains"
        />
        <Fact
          label="Duration"
          value={fmtMs(session.duration_ms)}
          sub={fmtDateTime(session.first_seen_ms)}
        />
        {res.data.unanswered.length > 0 && (
          <Fact
            label="Unanswered"
            value={fmtInt(res.data.unanswered.length)}
            sub="client closed first; not calls"
            title="Requests the server had not answered when the client closed cleanly: counted apart from calls, never as crashes"
            testId="session-unanswered"
          />
        )}
        <Fact label="Client" value={session.clients.join(', ') || '—'} />
        <Fact
          label="Cost"
          value={fmtUsd(session.cost_usd ?? null)}
          sub={session.tokens != null ? `${fmtInt(Math.round(session.tokens))} tokens` : undefined}
        />
      </div>

      <SdkLine sdk={res.data.sdk} declared={res.data.declared_fields} />
      <SessionProxyInfo proxy={res.data.proxy} unanswered={res.data.unanswered} />

      <Panel title="Timeline" actions={<Legend />}>
        <Timeline calls={calls} chains={chains} selectedId={callParam} onSelect={selectCall} />
      </Panel>

      <div className="stack session-lower">
        {chains.length > 0 && (
          <Panel title={`Retry chains (${chains.length})`} flush>
            <ChainList
              chains={chains}
              calls={calls}
              selectedId={callParam}
              onSelectCall={selectCall}
            />
          </Panel>
        )}
        <SessionAgreements agreements={res.data.agreements} />
        <div className="with-details">
          <Panel title={`Calls (${calls.length})`} flush>
            <SessionCallsTable
              calls={calls}
              chains={chains}
              selectedId={callParam}
              selectedIndex={selectedIndex}
              onSelect={selectCall}
            />
          </Panel>
          <CallDetails
            call={calls[selectedIndex]}
            chainLabel={chainLabelOf(chains, calls[selectedIndex]?.chain_id)}
            onClose={() => {
              setNav(-1);
              selectCall(undefined);
            }}
          />
        </div>
        {isProxied(session.sdk) && <MessageLog sessionId={session.id} />}
      </div>
    </div>
  );
}

function chainLabelOf(chains: { id: number; resolved: boolean }[], id: number | null | undefined) {
  const n = chains.findIndex((c) => c.id === id);
  if (n < 0) return undefined;
  return `chain ${n + 1}, ${chains[n]!.resolved ? 'resolved' : 'unresolved'}`;
}

function Legend() {
  return (
    <span className="tl-legend">
      <span>
        <span className="dot o-ok" /> ok
      </span>
      <span>
        <span className="dot o-empty" /> empty
      </span>
      <span>
        <span className="dot o-bad_args" /> bad args
      </span>
      <span>
        <span className="dot o-tool_error" /> tool error
      </span>
      <span>
        <span className="dot o-crashed" /> crashed
      </span>
      <span>
        <span className="legend-chain" /> retry chain
      </span>
    </span>
  );
}
