/**
 * What a session's startup said about the SDK (newer SDKs send its name and version, the MCP
 * SDK's version and the transport) and the session's agreement verdicts.
 */
import type { Agreement, SdkFacts } from '../../api/types';
import { Name } from '../../components/Name';
import { Panel } from '../../components/Panel';
import { fmtDateTime } from '../../lib/format';
import '../../components/agreements.css';

/** What the SDK said about itself, one line under the facts; nothing from older SDKs. */
export function SdkLine({ sdk }: { sdk: SdkFacts | null | undefined }) {
  if (!sdk) return null;
  const name = [sdk.name, sdk.version].filter(Boolean).join(' ') || 'unknown';
  return (
    <p className="session-sdk" data-testid="session-sdk">
      SDK <strong>{name}</strong>
      {sdk.transport && <> · over {sdk.transport}</>}
      {sdk.mcp_sdk_version && <> · MCP SDK {sdk.mcp_sdk_version}</>}
    </p>
  );
}

/** The session's verdicts, newest first; nothing when it has none. */
export function SessionAgreements({ agreements }: { agreements: Agreement[] | undefined }) {
  if (!agreements || agreements.length === 0) return null;
  return (
    <Panel title={`Agreement checks (${agreements.length})`} flush>
      <ul className="agreement-list session-agreements" data-testid="session-agreements">
        {agreements.map((a) => (
          <li key={a.id} className={a.agreed ? 'agreement' : 'agreement diverged'}>
            <span className={`agreement-mark ${a.agreed ? 'ok' : 'bad'}`}>
              {a.agreed ? 'agree' : 'disagree'}
            </span>
            <span className="agreement-field mono">
              <Name text={a.field} />
            </span>
            <span className="agreement-tools">
              <Name text={a.tool_a} /> <span className="faint">vs</span> <Name text={a.tool_b} />
            </span>
            <span className="agreement-n">{fmtDateTime(a.checked_ms)}</span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
