/**
 * The page without the owner token (issue 40): never a blank screen or a wall of failed
 * panels — one place that says what happened and the two ways in, in the app's own look.
 */
import { useEffect } from 'react';
import { TOKEN_COMMAND } from '../../../src/shared/owner-token';
import { CopyButton } from '../components/CopyButton';
import { APP_TITLE } from './title';
import './locked.css';

/** The default port: `token` needs `--port` only for another one. */
const DEFAULT_PORT = '7857';

export function LockedScreen() {
  const port = window.location.port || '80';
  const command = `${TOKEN_COMMAND}${port === DEFAULT_PORT ? '' : ` --port ${port}`}`;
  useEffect(() => {
    document.title = `Locked · ${APP_TITLE}`;
  }, []);
  return (
    <main className="locked" data-testid="locked-screen">
      <div className="locked-card">
        {/* The sidebar's brand, in classes of its own: the narrow layout hides the sidebar's. */}
        <div className="locked-brand">
          <span className="brand-mark" aria-hidden="true" />
          <span className="locked-brand-name">MCPulse</span>
          <span className="locked-brand-sub">Devtools</span>
        </div>
        <div className="locked-icon" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor">
            <rect x="5" y="11" width="14" height="9" rx="2" strokeWidth="1.8" />
            <path d="M8 11V8a4 4 0 0 1 8 0v3" strokeWidth="1.8" strokeLinecap="round" />
          </svg>
        </div>
        <h1 className="locked-title">This dashboard needs its link</h1>
        <p className="locked-lead">
          It shows what your tools were given and what they answered, so it opens only for its
          owner. Open the link the dashboard printed when it started, or run{' '}
          <code>{TOKEN_COMMAND}</code> in its checkout to print it.
        </p>
        <ol className="locked-steps">
          <li>
            <span className="locked-step-title">Open the printed link</span>
            <span className="locked-step-body">
              In the terminal that runs the dashboard, the line <code>dashboard</code> holds it:{' '}
              <code className="locked-url">http://{window.location.host}/?token=…</code>
            </span>
          </li>
          <li>
            <span className="locked-step-title">Or print it again</span>
            <span className="locked-step-body">
              On this machine, as the same user, in the MCPulse Devtools checkout:
            </span>
            <span className="state-env locked-command">
              <code>{command}</code>
              <CopyButton text={command} />
            </span>
          </li>
        </ol>
        <p className="locked-note">
          Opening the link once lets this browser in: the token becomes a cookie only this dashboard
          reads, and leaves the address bar. SDKs need nothing — ingest stays open.
        </p>
        <button type="button" className="btn" onClick={() => window.location.reload()}>
          Try again
        </button>
      </div>
    </main>
  );
}
