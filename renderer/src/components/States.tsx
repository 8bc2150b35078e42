/** Empty, loading and error states: every one says what to do next. */
import type { ReactNode } from 'react';
import { activeFilters, clearAll } from '../app/active-filters';
import { useFilters } from '../app/filters';
import { hrefOf, Link, useLocation, withParams } from '../app/router';
import type { Resource } from '../hooks/useResource';
import { useAppData } from '../app/status';
import { useCli } from '../app/cli';
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
  const cli = useCli();
  const endpoint = status?.endpoint ?? null;
  return (
    <EmptyState title="Waiting for the first payload" setup>
      <p>
        Nothing has been received yet. Set your SDK&apos;s endpoint option to this URL, with any
        non-empty key, make a tool call, and this page fills in live — no reload needed. No MCPulse
        SDK reads the endpoint from the environment: Setup shows the option for each one.
      </p>
      {endpoint && (
        <div className="state-env">
          <code>{endpoint}</code>
          <CopyButton text={endpoint} />
        </div>
      )}
      <p data-testid="try-demo">
        No server at hand? <code>{cli('demo')}</code> runs a real instrumented MCP server with
        scripted clients against this endpoint, so every page has something to show.
      </p>
    </EmptyState>
  );
}

export function ErrorState({
  message,
  retry,
  compact = false,
}: {
  message: string;
  retry?: () => void;
  /** A smaller form for one panel among others. */
  compact?: boolean;
}) {
  return (
    <div className={compact ? 'state error compact' : 'state error'} role="alert">
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

/**
 * Nothing in this view: names the filters that emptied it ("No calls match tool = nonexistent")
 * and offers to clear them, so an empty answer never looks like a page still loading.
 */
export function NoMatch({
  what = 'calls',
  compact = false,
  children,
}: {
  /** The plural noun of the missing things. */
  what?: string;
  /** A one-line form for small panels. */
  compact?: boolean;
  children?: ReactNode;
}) {
  const loc = useLocation();
  // Every filter, the page's own conditions included: two filters that empty a view together
  // are both named, never the one that happens to be global.
  const active = activeFilters(loc.path, loc.params);
  const narrowing = active.map((f) => f.text);
  // Page keys (a tool's name, a session id) stay; only the narrowing filters go.
  const clear = hrefOf(loc.path, withParams(loc.params, clearAll(active)));
  return (
    <div className={compact ? 'state compact' : 'state'} role="status" data-testid="no-match">
      <div className="state-title">
        {narrowing.length ? `No ${what} match ${narrowing.join(' · ')}` : `No ${what} in this view`}
      </div>
      {children && <div className="state-body">{children}</div>}
      {narrowing.length > 0 && (
        <Link className="btn" href={clear}>
          {narrowing.length === 1 ? 'Clear filter' : 'Clear all filters'}
        </Link>
      )}
    </div>
  );
}

/**
 * The four states of a panel fed by one request: loading (a skeleton, only until the first
 * answer), error (with Try again), empty (see {@link NoMatch}) and the data itself.
 */
export function ResourceBody<T>({
  res,
  isEmpty,
  what,
  rows = 3,
  children,
}: {
  res: Resource<T>;
  isEmpty: (data: T) => boolean;
  what?: string;
  rows?: number;
  children: (data: T) => ReactNode;
}) {
  if (res.data === undefined) {
    if (res.error) return <ErrorState message={res.error} retry={res.retry} compact />;
    return <Loading rows={rows} />;
  }
  if (isEmpty(res.data)) return <NoMatch what={what} compact />;
  return <>{children(res.data)}</>;
}
