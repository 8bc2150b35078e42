/**
 * What a session's startup said about the SDK (newer SDKs send its name and version, the MCP
 * SDK's version and the transport) and the session's agreement verdicts.
 */
import type { Agreement, SdkFacts } from '../../api/types';
import { Name } from '../../components/Name';
import { Panel } from '../../components/Panel';
import { fmtDateTime } from '../../lib/format';
import '../../components/agreements.css';

/** A declared agreement field and how often this session checked it. */
export interface DeclaredField {
  field: string;
  checks: number;
  never_checked: boolean;
}

/**
 * What the SDK said about itself, one line under the facts (nothing from older SDKs): its name
 * and version, transport, MCP SDK and protocol versions, and each field it declared it compares
 * across tools — a declared field that never produced a verdict called out, since a check that
 * never runs is what the SDK warns about.
 */
export function SdkLine({
  sdk,
  declared,
}: {
  sdk: SdkFacts | null | undefined;
  declared?: DeclaredField[] | undefined;
}) {
  if (!sdk) return null;
  const name = sdk.name ?? 'unknown';
  const unchecked = (declared ?? []).filter((d) => d.never_checked);
  return (
    <div className="session-sdk" data-testid="session-sdk">
      <p>
        SDK <strong>{name}</strong>
        {sdk.version ? <> version {sdk.version}</> : <span className="faint"> (no version)</span>}
        {sdk.transport && <> · over {sdk.transport}</>}
        {sdk.mcp_sdk_version && <> · MCP SDK {sdk.mcp_sdk_version}</>}
        {sdk.protocol_version && <> · protocol {sdk.protocol_version}</>}
      </p>
      {declared && declared.length > 0 && (
        <p data-testid="session-declared">
          Declared agreement fields:{' '}
          {declared.map((d, i) => (
            <span key={d.field}>
              {i > 0 && ', '}
              <code>
                <Name text={d.field} />
              </code>{' '}
              {d.never_checked ? (
                <strong className="bad">never checked</strong>
              ) : (
                <span className="faint">{d.checks} checks</span>
              )}
            </span>
          ))}
          {unchecked.length > 0 && (
            <span className="faint">
              {' '}
              — declared but no verdict arrived: no two tools returned{' '}
              {unchecked.length === 1 ? 'it' : 'them'} in this session
            </span>
          )}
        </p>
      )}
    </div>
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
