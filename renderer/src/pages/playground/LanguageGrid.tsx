/**
 * What each side sends for the input, two views kept apart: first the MCPulse SDKs as their
 * published code hashes (src/canonical/sdks — what a real server sends), then, labelled as such,
 * each language's usual JSON encoder — the traps you meet only if you hash arguments yourself.
 */
import type { Analysis } from '../../../../src/canonical/index';
import { RenderingCard } from './RenderingCard';

const NAMES: Record<string, string> = {
  ts: 'TypeScript',
  python: 'Python',
  go: 'Go',
  java: 'Java / Kotlin',
  dotnet: '.NET',
  rust: 'Rust',
  ruby: 'Ruby',
  php: 'PHP',
  swift: 'Swift',
};

/** The SDKs' renderings, then the hand-rolled encoders', for one analysed input. */
export function LanguageGrid({ analysis }: { analysis: Analysis }) {
  const sdks = Object.values(analysis.sdks);
  const sdkAgree = sdks.filter((r) => r.argsHash === analysis.argsHash).length;
  const encoders = Object.entries(analysis.languages);
  const encoderAgree = encoders.filter(([, r]) => r.argsHash === analysis.argsHash).length;
  return (
    <>
      <div className="pg-langs" data-testid="sdks">
        <h3 className="pg-langs-title">MCPulse SDKs: what each sends</h3>
        <div className="pg-langs-head muted">
          {sdkAgree} of {sdks.length} SDKs send the TypeScript SDK&apos;s hash for this input — as
          their published code computes it (version named; Python, Rust and Swift have no public
          source and are modelled from the docs)
        </div>
        <div className="pg-lang-grid">
          {sdks.flatMap((r) =>
            // An SDK with two entry points that hash differently (PHP) shows both, each named.
            [
              { ...r, key: r.id, mode: r.mode },
              ...(r.otherModes ?? []).map((o) => ({ ...o, key: `${r.id}-${o.mode.id}` })),
            ].map((m) => (
              <RenderingCard
                key={m.key}
                name={`${NAMES[r.id] ?? r.id}${m.mode ? ` · ${m.mode.id}` : ''}`}
                label={m.mode ? `${r.label} — ${m.mode.entry}` : r.label}
                note={
                  r.evidence === 'docs'
                    ? 'no public source: modelled from docs'
                    : `${r.name} ${r.version}`
                }
                text={m.text}
                argsHash={m.argsHash}
                failure={m.failure}
                sent={m.sent}
                traps={m.traps}
                canonical={analysis.canonical}
                canonicalHash={analysis.argsHash}
                dataAttr={{ 'data-sdk': m.key }}
              />
            )),
          )}
        </div>
      </div>
      <div className="pg-langs pg-handrolled" data-testid="languages">
        <h3 className="pg-langs-title">
          If you hash it yourself: each language&apos;s usual encoder
        </h3>
        <div className="pg-langs-head muted">
          Not what the SDKs do — what a port gets with the language&apos;s default JSON encoder.{' '}
          {encoderAgree} of {encoders.length} agree with the canonical form on this input.
        </div>
        <div className="pg-lang-grid">
          {encoders.map(([lang, r]) => (
            <RenderingCard
              key={lang}
              name={NAMES[lang] ?? lang}
              label={r.label}
              text={r.text}
              argsHash={r.argsHash}
              failure={r.failure}
              traps={r.traps}
              canonical={analysis.canonical}
              canonicalHash={analysis.argsHash}
              dataAttr={{ 'data-lang': lang }}
            />
          ))}
        </div>
      </div>
    </>
  );
}
