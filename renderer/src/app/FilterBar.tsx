/**
 * The global filters, top of every data page. Each change rewrites the URL (replace, so the
 * back button walks pages rather than every filter tweak), and every page reads from it. The
 * active filters show as chips under the bar (FilterChips.tsx).
 */
import { useLive } from '../api/live';
import { ExportMenu } from '../components/ExportMenu';
import { findProject, projectLabel } from './ProjectWarning';
import { FilterChips } from './FilterChips';
import { RANGES, filtersOf, invalidFilters } from './filters';
import { hrefOf, navigate, useLocation, withParams } from './router';
import { useAppData } from './status';

/** Pages that export their own subject: the bar's Export would be a second one. */
const OWN_EXPORT = new Set(['/session']);

/**
 * The bar. `bare` (pages without filters: Playground, Setup, Settings) keeps the same strip with
 * only the live state, so every page title sits at one height.
 */
export function FilterBar({ bare = false }: { bare?: boolean }) {
  const loc = useLocation();
  const f = filtersOf(loc.params);
  const { projects, hasData } = useAppData();
  // The Calls page narrows to one session with `session`; an export there follows it.
  const session = loc.path === '/calls' ? (loc.params.get('session') ?? undefined) : undefined;
  const set = (changes: Record<string, string | null>): void =>
    navigate(hrefOf(loc.path, withParams(loc.params, changes)), { replace: true });
  const customRange = !f.range && (f.from || f.to);
  if (bare)
    return (
      <div className="filterbar" data-testid="filterbar-bare">
        <div className="spacer" />
        <LiveIndicator />
      </div>
    );

  return (
    <div className="filterbar" role="toolbar" aria-label="Filters">
      <label className="filter">
        <span className="filter-label">Project</span>
        <select
          className="select"
          value={findProject(projects, f.project)?.ref ?? f.project ?? ''}
          onChange={(e) => set({ project: e.target.value || null })}
          aria-label="Project"
        >
          <option value="">All projects</option>
          {projects.map((p) => (
            <option key={p.id} value={p.ref}>
              {projectLabel(p)} ({p.calls} calls)
            </option>
          ))}
          {f.project && !findProject(projects, f.project) && (
            <option value={f.project}>{f.project} (no data)</option>
          )}
        </select>
      </label>
      <label className="filter">
        <span className="filter-label">Range</span>
        <select
          className="select"
          value={customRange ? 'custom' : (f.range ?? '')}
          onChange={(e) => set({ range: e.target.value || null, from: null, to: null })}
          aria-label="Time range"
        >
          {RANGES.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
          {customRange && <option value="custom">Custom range</option>}
        </select>
      </label>
      <FilterChips />
      {invalidFilters(loc.params).map((bad) => (
        <span
          key={bad.key}
          className="chip bad"
          role="status"
          data-testid={`bad-filter-${bad.key}`}
        >
          <span>
            <code>
              {bad.key}={bad.value}
            </code>{' '}
            ignored: {bad.reason}
          </span>
          <button
            type="button"
            className="chip-x"
            onClick={() => set({ [bad.key]: null })}
            aria-label={`Remove ${bad.key}=${bad.value} from the address`}
          >
            ×
          </button>
        </span>
      ))}
      <div className="spacer" />
      <LiveIndicator />
      {!OWN_EXPORT.has(loc.path) && (
        <ExportMenu filters={f} session={session} disabled={hasData === false} />
      )}
    </div>
  );
}

function LiveIndicator() {
  const live = useLive();
  const text =
    live.state === 'open'
      ? live.rate >= 0.5
        ? `Live · ${Math.round(live.rate)}/s`
        : 'Live'
      : live.state === 'connecting'
        ? 'Connecting…'
        : 'Reconnecting…';
  return (
    <span
      className={`live ${live.state}`}
      role="status"
      data-testid="live-indicator"
      title="Updates arrive over /api/stream"
    >
      <span className="live-dot" />
      {text}
    </span>
  );
}
