/** What SDKs or their parsers do differently with this input, with the SDKs each one affects. */
import type { Diagnostic } from '../../../../src/canonical/index';

export function DiagnosticList({ diagnostics }: { diagnostics: Diagnostic[] }) {
  if (diagnostics.length === 0) {
    return (
      <div className="pg-clean" data-testid="diagnostics">
        No diagnostics: nothing in this input is parsed differently by the SDKs.
      </div>
    );
  }
  return (
    <ul className="pg-diags" data-testid="diagnostics">
      {diagnostics.map((d, i) => (
        <li key={`${d.code}-${d.offset}-${i}`} className={`pg-diag ${d.severity}`}>
          <div className="pg-diag-head">
            <span
              className={`badge ${d.severity === 'error' ? 'danger' : d.severity === 'warning' ? 'warn' : ''}`}
            >
              {d.severity}
            </span>
            <code className="faint">{d.code}</code>
            <span className="faint">
              line {d.line}:{d.column}
              {d.path ? ` · ${d.path}` : ''}
            </span>
            {d.more ? <span className="faint">+{d.more} more</span> : null}
          </div>
          <div className="pg-diag-msg">{d.message}</div>
          {d.affects.length > 0 && (
            <ul className="pg-affects">
              {d.affects.map((a) => (
                <li key={a.sdk}>
                  <b>{a.sdk}</b> {a.effect}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}
