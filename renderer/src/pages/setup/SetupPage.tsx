/**
 * Setup: the URL to give an SDK (from /api/status, so it is the real port), whether a payload has
 * arrived ("connected: <client>, <session>, N calls", or what to check while waiting), each SDK's
 * real options with copy buttons (sdk-snippets.ts, the text README and docs/setup.md carry too),
 * a curl check, and the listener's state.
 */
import { useState } from 'react';
import { useAppData } from '../../app/status';
import { useCli } from '../../app/cli';
import { CopyButton } from '../../components/CopyButton';
import { Panel } from '../../components/Panel';
import { ErrorState, Loading } from '../../components/States';
import { fmtDateTime, fmtInt } from '../../lib/format';
import { Ticks } from '../../lib/ticks';
import { ProxySetup } from './ProxySetup';
import { ConnectionStatus } from './ConnectionStatus';
import { curlSample, SDK_SETUPS, setupCode } from './sdk-snippets';
import './setup.css';

export function SetupPage() {
  const { status, statusError, hasData } = useAppData();
  const [lang, setLang] = useState(SDK_SETUPS[0]!.id);
  const cli = useCli();
  if (statusError && !status) return <ErrorState message={statusError} />;
  if (!status) return <Loading rows={6} />;
  const endpoint = status.endpoint;
  const guide = SDK_SETUPS.find((g) => g.id === lang) ?? SDK_SETUPS[0]!;

  return (
    <div className="setup">
      <div className="page-head">
        <h1>Setup</h1>
        <span className="sub">
          Point any MCPulse SDK at this app; calls show up here as they happen.
        </span>
      </div>

      <div className="endpoint-hero">
        <div>
          <div className="hero-label">Endpoint</div>
          <code className="hero-url" data-testid="endpoint-url">
            {endpoint}
          </code>
        </div>
        <CopyButton text={endpoint} label="Copy URL" />
        <div className="spacer" />
        <span className={hasData ? 'badge ok' : 'badge warn'} data-testid="first-payload">
          {hasData ? 'Receiving data' : 'No payload received yet'}
        </span>
      </div>

      <Panel title="Connection" className="setup-connection">
        <ConnectionStatus />
      </Panel>

      <div className="grid setup-grid">
        <Panel title="Connect your MCP server" flush>
          <div className="tabs" role="tablist" aria-label="SDK language">
            {SDK_SETUPS.map((g) => (
              <button
                key={g.id}
                role="tab"
                aria-selected={g.id === guide.id}
                className={g.id === guide.id ? 'tab active' : 'tab'}
                onClick={() => setLang(g.id)}
              >
                {g.label}
              </button>
            ))}
          </div>
          <div className="guide" role="tabpanel" aria-label={guide.label}>
            <Snippet
              title={
                guide.source
                  ? `${guide.packageName} ${guide.version}: set the endpoint and the key`
                  : `${guide.packageName} (source not public): the published snippet`
              }
              text={setupCode(guide, endpoint)}
            />
            <dl className="facts setup-facts">
              <dt>Install</dt>
              <dd>
                <code>{guide.install}</code>
                <div className="small muted" data-testid="install-note">
                  <Ticks text={guide.installNote} />
                </div>
              </dd>
              <dt>Endpoint option</dt>
              <dd>
                <code>{guide.endpointOption}</code>
              </dd>
              <dt>Environment</dt>
              <dd>{guide.envRead}</dd>
              <dt>Flushes</dt>
              <dd>
                <span>
                  <Ticks text={guide.flush} />
                </span>
              </dd>
              <dt>Source</dt>
              <dd>
                {guide.source ? (
                  <code>
                    {guide.source.repo}/{guide.source.path}
                  </code>
                ) : (
                  'not public'
                )}
              </dd>
            </dl>
            <ul className="notes">
              {guide.notes.map((n) => (
                <li key={n}>
                  <Ticks text={n} />
                </li>
              ))}
            </ul>
            <p className="muted small">
              SDKs strip a trailing slash and post to <code>{endpoint}/v1/ingest</code>. The key is
              never stored: only its SHA-256, and its first 12 characters as a label. Use a
              different key per server to see them apart.
            </p>
          </div>
        </Panel>

        <div className="stack">
          <Panel title="Listener">
            <dl className="facts" data-testid="listener">
              <dt>Addresses</dt>
              <dd>
                {status.addresses.map((a) => (
                  <code key={a}>{a}</code>
                ))}
              </dd>
              <dt>Port</dt>
              <dd>
                <code>{status.port}</code>
              </dd>
              <dt>Rows stored</dt>
              <dd data-testid="rows-stored">
                {fmtInt(status.counts.calls)} calls · {fmtInt(status.counts.startups)} startups ·{' '}
                {fmtInt(status.counts.batches)} batches · {fmtInt(status.counts.rejections)}{' '}
                rejected
              </dd>
              <dt>Projects</dt>
              <dd>{fmtInt(status.counts.projects)}</dd>
              <dt>Database</dt>
              <dd className="db-path">
                <code title={status.dbPath}>{status.dbPath}</code>
                <CopyButton text={status.dbPath} />
              </dd>
              <dt>Running since</dt>
              <dd>{fmtDateTime(status.startedMs)}</dd>
              <dt>Version</dt>
              <dd>{status.version}</dd>
            </dl>
          </Panel>
          <ProxySetup endpoint={endpoint} dbPath={status.dbPath} />
          <Panel title="Check it without an SDK">
            <Snippet title="Send one call with curl; expect HTTP 202" text={curlSample(endpoint)} />
          </Panel>
          <Panel title="Docker and other machines">
            <p className="muted small">
              The listener only accepts loopback connections. A server in a container needs{' '}
              <code>{cli('serve --host 0.0.0.0')}</code> and the SDK&apos;s endpoint option set to{' '}
              <code>http://host.docker.internal:{status.port}</code>. Change the port with{' '}
              <code>--port</code> or <code>MCPULSE_DEVTOOLS_PORT</code>.
            </p>
          </Panel>
        </div>
      </div>
    </div>
  );
}

function Snippet({ title, text }: { title: string; text: string }) {
  return (
    <div className="snippet">
      <div className="snippet-head">
        <span>{title}</span>
        <CopyButton text={text} />
      </div>
      <pre>{text}</pre>
    </div>
  );
}
