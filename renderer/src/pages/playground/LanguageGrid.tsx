/**
 * What each side sends for the input, two views kept apart: first the MCPulse SDKs as their
 * published code hashes (src/canonical/sdks — what a real server sends), then, labelled as such,
 * each language's usual JSON encoder — the traps you meet only if you hash arguments yourself.
 * Those that send the canonical hash are one card, shown once; only the differing ones expand.
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
  // An SDK with two entry points that hash differently (PHP) is two entries, each named.
  const entries = sdks.flatMap((r) => [
    { ...r, sdk: r, key: r.id, mode: r.mode },
    ...(r.otherModes ?? []).map((o) => ({ ...o, sdk: r, key: `${r.id}-${o.mode.id}` })),
  ]);
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
          <AgreeingCard
            testId="sdks-agree"
            analysis={analysis}
            members={entries
              .filter((m) => m.argsHash === analysis.argsHash && m.failure === undefined)
              .map((m) => ({
                id: m.key,
                name: `${NAMES[m.sdk.id] ?? m.sdk.id}${m.mode ? ` · ${m.mode.id}` : ''}`,
                attr: { 'data-sdk': m.key },
                note:
                  m.sdk.evidence === 'docs'
                    ? 'modelled from docs'
                    : `${m.sdk.name} ${m.sdk.version}`,
              }))}
            of={entries.length}
          />
          {entries
            .filter((m) => m.argsHash !== analysis.argsHash || m.failure !== undefined)
            .map((m) => (
              <RenderingCard
                key={m.key}
                name={`${NAMES[m.sdk.id] ?? m.sdk.id}${m.mode ? ` · ${m.mode.id}` : ''}`}
                label={m.mode ? `${m.sdk.label} — ${m.mode.entry}` : m.sdk.label}
                note={
                  m.sdk.evidence === 'docs'
                    ? 'no public source: modelled from docs'
                    : `${m.sdk.name} ${m.sdk.version}`
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
            ))}
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
          <AgreeingCard
            testId="languages-agree"
            analysis={analysis}
            members={encoders
              .filter(([, r]) => r.argsHash === analysis.argsHash && r.failure === undefined)
              .map(([lang, r]) => ({ id: lang, attr: { 'data-lang': lang }, note: r.label }))}
            of={encoders.length}
          />
          {encoders
            .filter(([, r]) => r.argsHash !== analysis.argsHash || r.failure !== undefined)
            .map(([lang, r]) => (
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

/** The agreeing card shows this much of the canonical form; the panel above has all of it. */
const AGREE_PREVIEW_CHARS = 400;

/**
 * Everyone who sends the canonical hash, in one card: their names (and versions), the hash
 * and the canonical text once — not the same text nine times.
 */
function AgreeingCard({
  analysis,
  members,
  of,
  testId,
}: {
  analysis: Analysis;
  members: { id: string; name?: string; attr: Record<string, string>; note: string }[];
  of: number;
  testId: string;
}) {
  if (members.length === 0) return null;
  return (
    <div className="pg-lang same pg-agree" data-testid={testId}>
      <div className="pg-lang-top">
        <span className="pg-lang-name">
          {members.length === of ? `All ${of} agree` : `${members.length} of ${of} agree`}
        </span>
        <span className="badge ok">same hash</span>
        <code className="pg-lang-hash" title="the args_hash they send">
          {analysis.argsHash}
        </code>
      </div>
      <ul className="pg-agree-list">
        {members.map((m) => (
          <li key={m.id} {...m.attr}>
            <b>{m.name ?? NAMES[m.id] ?? m.id}</b> <span className="faint">{m.note}</span>
          </li>
        ))}
      </ul>
      {analysis.canonical !== null && (
        // The canonical form itself (no diff to draw): its start, the whole of it is above.
        <code className="pg-text" title="the canonical form, as in the panel above">
          {analysis.canonical.length > AGREE_PREVIEW_CHARS
            ? `${analysis.canonical.slice(0, AGREE_PREVIEW_CHARS)}…`
            : analysis.canonical}
        </code>
      )}
    </div>
  );
}
