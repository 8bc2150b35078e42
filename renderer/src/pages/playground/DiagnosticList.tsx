/**
 * What SDKs or their parsers do differently with this input, with the SDKs each one affects.
 * Some diagnostics are about the SDKs' own code (lone surrogates, nesting, null arguments, PHP's
 * arrays); for the rest every published SDK does what the TypeScript SDK does, and the effects
 * listed are those of each language's usual encoder — labelled so, as the trap view below is.
 */
import type { Diagnostic, DiagnosticCode } from '../../../../src/canonical/index';
import { mergeEffects, rankDiagnostics, shownSeverity } from './group-outcomes';

/** Codes whose effects come from the SDK models (src/canonical/sdks), not the encoder traps. */
const FROM_SDKS: ReadonlySet<DiagnosticCode> = new Set([
  'lone-surrogate',
  'nesting-depth',
  'top-level-null',
  'top-level-not-object',
  'php-array',
]);

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
      {rankDiagnostics(diagnostics).map((d, i) => {
        const severity = shownSeverity(d);
        return (
          <li key={`${d.code}-${d.offset}-${i}`} className={`pg-diag ${severity}`}>
            <div className="pg-diag-head">
              <span
                className={`badge ${severity === 'error' ? 'danger' : severity === 'warning' ? 'warn' : ''}`}
                title={
                  severity !== d.severity
                    ? `${d.affects.length} languages hash different bytes`
                    : undefined
                }
              >
                {severity}
              </span>
              <code className="faint">{d.code}</code>
              <span className="faint">
                line {d.line}:{d.column}
                {d.path ? ` · ${d.path}` : ''}
              </span>
              {d.more ? <span className="faint">+{d.more} more</span> : null}
            </div>
            <div className="pg-diag-msg">{d.message}</div>
            {d.affects.length > 0 && !FROM_SDKS.has(d.code) && (
              <div className="pg-note faint" data-testid="if-you-hash-it-yourself">
                The published SDKs agree here; only hand-rolled encoders differ:
              </div>
            )}
            {d.affects.length > 0 && (
              <ul className="pg-affects">
                {mergeEffects(d).map((a) => (
                  <li key={a.effect}>
                    <b>{a.sdks.join(', ')}</b> {a.effect}
                  </li>
                ))}
              </ul>
            )}
          </li>
        );
      })}
    </ul>
  );
}
