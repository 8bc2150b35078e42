/** The 23 conformance fixtures with live pass/fail against the engine; click one to load it. */
import type { FixtureResult } from './fixtures';

export function FixturePanel({
  results,
  active,
  onLoad,
}: {
  results: FixtureResult[];
  active: string | null;
  onLoad: (f: FixtureResult) => void;
}) {
  const passed = results.filter((r) => r.pass).length;
  return (
    <div className="pg-fixtures">
      <div className="pg-fixtures-head">
        <h2>Conformance fixtures</h2>
        <span
          className={`badge ${passed === results.length ? 'ok' : 'danger'}`}
          data-testid="fixtures-score"
        >
          {passed}/{results.length} pass
        </span>
      </div>
      <ol className="pg-fixture-list" data-testid="fixtures">
        {results.map((f) => (
          <li key={f.name}>
            <button
              type="button"
              className={`pg-fixture ${active === f.name ? 'active' : ''}`}
              onClick={() => onLoad(f)}
              title={
                f.pass
                  ? `${f.canonical} → ${f.argsHash}`
                  : `expected ${f.argsHash}, engine gave ${f.gotHash}`
              }
              data-pass={f.pass}
            >
              <span className={`pg-mark ${f.pass ? 'pass' : 'fail'}`}>{f.pass ? '✓' : '✗'}</span>
              <span className="pg-fixture-name">{f.name}</span>
              <code className="faint">{f.argsHash}</code>
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
