/**
 * Setup: the URL to give an SDK (from /api/status, so it is the real port), per-language
 * instructions with copy buttons, a curl check, and the listener's state.
 */
import { useState } from 'react';
import { useAppData } from '../../app/status';
import { CopyButton } from '../../components/CopyButton';
import { Panel } from '../../components/Panel';
import { ErrorState, Loading } from '../../components/States';
import { fmtDateTime, fmtInt } from '../../lib/format';
import { Ticks } from '../../lib/ticks';
import { ProxySetup } from './ProxySetup';
import { curlSample, SDK_GUIDES } from './sdk-snippets';
import './setup.css';

export function SetupPage() {
  const { status, statusError, hasData } = useAppData();
  const [lang, setLang] = useState(SDK_GUIDES[0]!.id);
  if (statusError && !status) return <ErrorState message={statusError} />;
  if (!status) return <Loading rows={6} />;
  const endpoint = status.endpoint;
  const guide = SDK_GUIDES.find((g) => g.id === lang) ?? SDK_GUIDES[0]!;

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

      <div className="grid setup-grid">
        <Panel title="Connect your MCP server" flush>
          <div className="tabs" role="tablist" aria-label="SDK language">
            {SDK_GUIDES.map((g) => (
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
              title="Environment of the process that runs your MCP server"
              text={guide.env(endpoint)}
            />
            {guide.code && <Snippet title="Or in code" text={guide.code(endpoint)} />}
            <ul className="notes">
              {guide.notes.map((n) => (
                <li key={n}>
                  <Ticks text={n} />
                </li>
              ))}
            </ul>
            <p className="muted small">
              SDKs strip a trailing slash and post to <code>{endpoint}/v1/ingest</code> every 5 s or
              30 payloads. The key is never stored: only its SHA-256 and first 12 characters, which
              name the project here. Use a different key per server to see them apart.
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
          <ProxySetup endpoint={endpoint} />
          <Panel title="Check it without an SDK">
            <Snippet title="Send one call with curl; expect HTTP 202" text={curlSample(endpoint)} />
          </Panel>
          <Panel title="Docker and other machines">
            <p className="muted small">
              The listener only accepts loopback connections. A server in a container needs{' '}
              <code>mcpulse-devtools serve --host 0.0.0.0</code> and{' '}
              <code>MCPULSE_ENDPOINT=http://host.docker.internal:{status.port}</code>. Change the
              port with <code>--port</code> or <code>MCPULSE_DEVTOOLS_PORT</code>.
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
