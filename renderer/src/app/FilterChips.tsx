/**
 * A chip for every active filter, each removable, and "Clear all": what narrows the view is
 * always on screen, in the filter bar, on every data page.
 */
import { Name } from '../components/Name';
import { activeFilters, clearAll } from './active-filters';
import { hrefOf, navigate, useLocation, withParams } from './router';

export function FilterChips() {
  const loc = useLocation();
  const active = activeFilters(loc.path, loc.params);
  if (active.length === 0) return null;
  const set = (changes: Record<string, string | null>): void =>
    navigate(hrefOf(loc.path, withParams(loc.params, changes)), { replace: true });
  return (
    <div
      className="filter-chips"
      role="group"
      aria-label="Active filters"
      data-testid="filter-chips"
    >
      {active.map((f) => (
        <span key={f.key} className="chip" data-testid={`filter-${f.key}`}>
          <span className="chip-label">{f.label}</span>
          <Name text={f.value} className="chip-value" />
          <button
            type="button"
            className="chip-x"
            onClick={() => set({ [f.key]: null })}
            aria-label={`Clear ${f.label} filter`}
          >
            ×
          </button>
        </span>
      ))}
      {active.length > 0 && (
        <button type="button" className="btn small" onClick={() => set(clearAll(active))}>
          Clear all
        </button>
      )}
    </div>
  );
}
