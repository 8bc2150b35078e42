/** Each language's default encoder on the input, side by side, differences highlighted. */
import { TRAPS, type Analysis } from '../../../../src/canonical/index';
import { DiffText } from './DiffText';

const NAMES: Record<string, string> = {
  python: 'Python',
  go: 'Go',
  java: 'Java / Kotlin',
  dotnet: '.NET',
  rust: 'Rust',
  ruby: 'Ruby',
  php: 'PHP',
  swift: 'Swift',
};

export function LanguageGrid({ analysis }: { analysis: Analysis }) {
  const agree = Object.values(analysis.languages).filter(
    (r) => r.argsHash === analysis.argsHash,
  ).length;
  return (
    <div className="pg-langs" data-testid="languages">
      <div className="pg-langs-head muted">
        {agree} of {Object.keys(analysis.languages).length} default encoders agree with RFC 8785 on
        this input
      </div>
      <div className="pg-lang-grid">
        {Object.entries(analysis.languages).map(([lang, r]) => {
          const same = r.argsHash === analysis.argsHash;
          return (
            <div key={lang} className={`pg-lang ${same ? 'same' : 'differs'}`} data-lang={lang}>
              <div className="pg-lang-top">
                <span className="pg-lang-name">{NAMES[lang] ?? lang}</span>
                <span className={`badge ${same ? 'ok' : 'warn'}`}>
                  {same ? 'same hash' : 'differs'}
                </span>
                <code className="pg-lang-hash" title="what this SDK would send as args_hash">
                  {r.argsHash}
                </code>
              </div>
              <div className="pg-lang-label" title={r.label}>
                {r.label}
              </div>
              {r.text === null ? (
                <div className="pg-fail">cannot encode: {r.failure}</div>
              ) : (
                <DiffText canonical={analysis.canonical} text={r.text} />
              )}
              {r.traps.length > 0 && (
                <ul className="pg-traps">
                  {r.traps.map((t) => (
                    <li key={t.trap} title={TRAPS[t.trap]}>
                      <code>{t.example}</code> — {TRAPS[t.trap]}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
