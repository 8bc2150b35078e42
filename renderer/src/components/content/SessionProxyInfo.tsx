/**
 * What the client and the server said about themselves at `initialize` (name, version,
 * capabilities, the server's instructions), and the requests left unanswered when the session
 * ended cleanly: counted apart from calls, since no tool failed — the client went away first.
 */
import type { ProxySessionInfo, UnansweredRequest } from '../../api/content';
import { fmtInt } from '../../lib/format';
import { ContentBoundary } from '../ContentBoundary';
import { Panel } from '../Panel';
import { JsonBlock } from './JsonBlock';
import { stringifyJson } from '../../../../src/shared/deep-json';
import './session-proxy.css';
import { RedactedText } from './Redacted';

export function SessionProxyInfo({
  proxy,
  unanswered,
}: {
  proxy: ProxySessionInfo | null | undefined;
  unanswered: UnansweredRequest[] | null | undefined;
}) {
  const open = unanswered ?? [];
  if (!proxy && open.length === 0) return null;
  return (
    <Panel title="Client and server" className="session-proxy">
      <div className="sp-peers" data-testid="session-proxy">
        {proxy && <Peer role="Client" peer={proxy.client} />}
        {proxy && (
          <Peer role="Server" peer={proxy.server} instructions={proxy.server.instructions} />
        )}
      </div>
      {proxy && (
        <p className="sp-meta muted small">
          MCP protocol {proxy.protocol_version ?? 'not given'} · proxied over {proxy.transport}
        </p>
      )}
      {open.length > 0 && <Unanswered requests={open} />}
    </Panel>
  );
}

function Peer({
  role,
  peer,
  instructions,
}: {
  role: string;
  peer: ProxySessionInfo['client'];
  instructions?: string | null;
}) {
  const caps = peer.capabilities ? Object.keys(peer.capabilities) : [];
  return (
    <section className="sp-peer" aria-label={role} data-testid={`proxy-${role.toLowerCase()}`}>
      <h3>
        <span className="sp-role">{role}</span>{' '}
        <bdi dir="auto" className="mono">
          {peer.name ?? 'unnamed'}
        </bdi>{' '}
        <span className="muted">{peer.version ?? ''}</span>
      </h3>
      <div className="sp-caps">
        <span className="muted small">Capabilities</span>{' '}
        {caps.length === 0 ? (
          <span className="muted small">none declared</span>
        ) : (
          caps.map((c) => (
            <span key={c} className="badge">
              {c}
            </span>
          ))
        )}
      </div>
      {caps.length > 0 && (
        <details className="sp-details">
          <summary>Capabilities as sent</summary>
          <ContentBoundary what="The capabilities" resetKey={peer.capabilities}>
            <JsonBlock
              text={stringifyJson(peer.capabilities)}
              label="Capabilities as sent"
              className="sp-json"
            />
          </ContentBoundary>
        </details>
      )}
      {instructions && (
        <details className="sp-details" open={instructions.length < 400}>
          <summary>Instructions</summary>
          <p className="sp-instructions" dir="auto">
            <RedactedText text={instructions} />
          </p>
        </details>
      )}
    </section>
  );
}

function Unanswered({ requests }: { requests: UnansweredRequest[] }) {
  return (
    <div className="sp-unanswered" data-testid="unanswered">
      <p>
        <strong>unanswered: {fmtInt(requests.length)}</strong> — the client closed before the server
        answered. Counted apart from calls: these are not crashes.
      </p>
      <ul>
        {requests.slice(0, 20).map((r) => (
          <li key={r.rpc_id}>
            <code>{r.method}</code>
            {r.tool_name && (
              <>
                {' '}
                <span className="mono">{r.tool_name}</span>
              </>
            )}{' '}
            <span className="muted small">id {r.rpc_id}</span>
          </li>
        ))}
        {requests.length > 20 && <li className="muted">and {fmtInt(requests.length - 20)} more</li>}
      </ul>
    </div>
  );
}
