/** The shell: sidebar, filter bar (under the spool's failure banner, if any), and the page. */
import { lazy, Suspense, useCallback, type ReactNode } from 'react';
import { CallsPage } from '../pages/calls/CallsPage';
import { IngestPage } from '../pages/ingest/IngestPage';
import { OverviewPage } from '../pages/overview/OverviewPage';
import { ComparePage } from '../pages/sessions/ComparePage';
import { SessionPage } from '../pages/sessions/SessionPage';
import { SessionsPage } from '../pages/sessions/SessionsPage';
import { SettingsPage } from '../pages/settings/SettingsPage';
import { SetupPage } from '../pages/setup/SetupPage';
import { SizesPage } from '../pages/sizes/SizesPage';
import { ToolPage } from '../pages/tools/ToolPage';
import { ToolsPage } from '../pages/tools/ToolsPage';
import { Loading } from '../components/States';
import { useLocked } from '../api/lock';
import { LockedScreen } from './LockedScreen';
import { useGlobalHotkeys } from '../hooks/useHotkeys';
import { FilterBar } from './FilterBar';
import { ProjectWarning } from './ProjectWarning';
import { KeyboardHelp } from './KeyboardHelp';
import { useFilters } from './filters';
import { NAV } from './nav';
import { PartialFigures } from './PartialFigures';
import { Link, navigate, useLocation } from './router';
import { Sidebar } from './Sidebar';
import { SpoolFailure } from './SpoolNotice';
import { AppDataProvider } from './status';
import { usePageTitle } from './title';
import './shell.css';
import './narrow.css';

// The playground carries the canonical engine and the fixtures; load it when opened.
const PlaygroundPage = lazy(() => import('../pages/playground/PlaygroundPage'));

const PAGES: Record<string, { render: () => ReactNode; filters: boolean }> = {
  '/': { render: () => <OverviewPage />, filters: true },
  '/sessions': { render: () => <SessionsPage />, filters: true },
  '/session': { render: () => <SessionPage />, filters: true },
  '/compare': { render: () => <ComparePage />, filters: true },
  '/tools': { render: () => <ToolsPage />, filters: true },
  '/tool': { render: () => <ToolPage />, filters: true },
  '/calls': { render: () => <CallsPage />, filters: true },
  '/sizes': { render: () => <SizesPage />, filters: true },
  '/ingest': { render: () => <IngestPage />, filters: true },
  '/playground': {
    render: () => (
      <Suspense fallback={<Loading />}>
        <PlaygroundPage />
      </Suspense>
    ),
    filters: false,
  },
  '/setup': { render: () => <SetupPage />, filters: false },
  '/settings': { render: () => <SettingsPage />, filters: false },
};

export function App() {
  const loc = useLocation();
  const { link } = useFilters();
  const go = useCallback(
    (key: string): boolean => {
      const item = NAV.find((n) => n.key === key);
      if (!item) return false;
      navigate(link(item.path));
      return true;
    },
    [link],
  );
  useGlobalHotkeys(go);
  usePageTitle();
  // Without the owner token every request would fail: one screen says how to get in instead.
  const locked = useLocked();
  const page = PAGES[loc.path];
  if (locked) return <LockedScreen />;
  return (
    <AppDataProvider>
      <div className="app">
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Sidebar />
        <div className="main">
          <SpoolFailure />
          <FilterBar bare={page?.filters === false} />
          {page?.filters !== false && <ProjectWarning />}
          {page?.filters && <PartialFigures />}
          <main className="content" id="main" tabIndex={-1} key={loc.path}>
            {page ? page.render() : <NotFound path={loc.path} />}
          </main>
        </div>
      </div>
      <KeyboardHelp />
    </AppDataProvider>
  );
}

/** Any path the app has no page for: said plainly, inside the shell, with a way back. */
function NotFound({ path }: { path: string }) {
  return (
    <div className="state" data-testid="not-found">
      <h1 className="state-title">No page at {path}</h1>
      <p className="muted">Pages live one level deep, such as /sessions or /tool?name=…</p>
      <Link className="btn" href="/">
        Go to the overview
      </Link>
    </div>
  );
}
