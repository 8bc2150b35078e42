/** Empty, loading and error states: every one says what to do next. */
import type { ReactNode } from 'react';
import { useFilters } from '../app/filters';
import { Link } from '../app/router';
import { useAppData } from '../app/status';
import { CopyButton } from './CopyButton';
import './states.css';

export function EmptyState({
  title,
  children,
  setup = false,
}: {
  title: string;
  children?: ReactNode;
  setup?: boolean;
}) {
  const { link } = useFilters();
  return (
    <div className="state" role="status">
      <div className="state-title">{title}</div>
      {children && <div className="state-body">{children}</div>}
      {setup && (
        <Link className="btn primary" href={link('/setup')}>
          Point an SDK here →
        </Link>
      )}
    </div>
  );
}

/** Shown on every page until the first payload arrives. */
export function NoDataYet() {
  const { status } = useAppData();
  const env = status ? `MCPULSE_ENDPOINT=${status.endpoint}` : null;
  return (
    <EmptyState title="Waiting for the first payload" setup>
      <p>
        Nothing has been received yet. Start your MCP server with this in its environment (and any
        non-empty <code>MCPULSE_KEY</code>), make a tool call, and this page fills in live — no
        reload needed.
      </p>
      {env && (
        <div className="state-env">
          <code>{env}</code>
          <CopyButton text={env} />
        </div>
      )}
    </EmptyState>
  );
}

export function ErrorState({ message, retry }: { message: string; retry?: () => void }) {
  return (
    <div className="state error" role="alert">
      <div className="state-title">Could not load this view</div>
      <div className="state-body">{message}</div>
      {retry && (
        <button className="btn" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Loading({ rows = 3 }: { rows?: number }) {
  return (
    <div className="loading" role="status" aria-busy="true" aria-label="Loading">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton" />
      ))}
    </div>
  );
}

/** An inline banner for an error while older data stays on screen. */
export function StaleBanner({ message }: { message: string }) {
  return (
    <div className="stale-banner" role="status">
      Showing the last data received — {message}
    </div>
  );
}
