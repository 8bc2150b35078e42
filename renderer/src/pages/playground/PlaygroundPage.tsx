/**
 * Playground: type or paste tool arguments and see, live, the canonical form, the args_hash,
 * the diagnostics and what every language's encoder would send. Everything runs on this
 * machine with the canonical engine itself — in a Web Worker, so a 50 KB input types as fast
 * as a short one; nothing typed leaves the machine.
 */
import { memo, useMemo, useState } from 'react';
import type { Analysis } from '../../../../src/canonical/index';
import { useLocation } from '../../app/router';
import { CopyButton } from '../../components/CopyButton';
import { CompareArgs } from './CompareArgs';
import { DiagnosticList } from './DiagnosticList';
import { FixturePanel } from './FixturePanel';
import { checkFixtures, loadFixtures } from './fixtures';
import { HashDiagnosis } from './HashDiagnosis';
import { LanguageGrid } from './LanguageGrid';
import { CanonicalText } from './CanonicalText';
import { useAnalysis } from './useAnalysis';
import './playground.css';

const STORAGE_KEY = 'mcpulse.playground.input';
const EXAMPLE =
  '{\n  "query": "café <b>&",\n  "limit": 10.0,\n  "filters": { "🚀": true, "\\uffff": false }\n}';

/** One text across languages, or two texts compared (`?mode=compare`, from a retry chain). */
export default function PlaygroundPage() {
  return useLocation().params.get('mode') === 'compare' ? <CompareArgs /> : <SingleText />;
}

function SingleText() {
  const [text, setText] = useState(() => localStorage.getItem(STORAGE_KEY) ?? EXAMPLE);
  const [hash, setHash] = useState('');
  const [active, setActive] = useState<string | null>(null);
  const { result, analysing } = useAnalysis(text);
  const fixtures = useMemo(() => checkFixtures(loadFixtures()), []);

  const edit = (value: string): void => {
    setText(value);
    setActive(null);
    try {
      localStorage.setItem(STORAGE_KEY, value);
    } catch {
      // Storage can be full or disabled; the playground works without it.
    }
  };

  return (
    <div className="playground">
      <div className="page-head">
        <h1>Playground</h1>
        <span className="sub">
          args_hash = first 12 hex of SHA-256 over the RFC 8785 form · runs in this page — nothing
          you type is sent anywhere
        </span>
      </div>
      <div className="pg-layout">
        <div className="pg-main">
          <div className="pg-io">
            <section className="pg-input panel">
              <header className="panel-head">
                <h2>Arguments</h2>
                <div className="spacer" />
                <button className="btn small ghost" onClick={() => edit(EXAMPLE)}>
                  Example
                </button>
                <button className="btn small ghost" onClick={() => edit('')}>
                  Clear
                </button>
              </header>
              <textarea
                className="pg-editor mono"
                value={text}
                onChange={(e) => edit(e.target.value)}
                spellCheck={false}
                autoCapitalize="off"
                autoComplete="off"
                aria-label="Tool arguments as JSON"
                data-testid="pg-input"
                placeholder='{"query": "…"}'
              />
              {!result.ok && (
                <div className="pg-syntax" role="alert" data-testid="pg-error">
                  Not JSON: {result.error}
                  {result.line ? ` (line ${result.line}, column ${result.column})` : ''}
                </div>
              )}
            </section>
            <section className="pg-output panel">
              <header className="panel-head">
                <h2>Canonical form</h2>
                <div className="spacer" />
                <span className="panel-note" role="status" data-testid="pg-analysing">
                  {analysing ? 'updating…' : ''}
                </span>
              </header>
              <div className="panel-body">
                {result.ok ? (
                  <Output analysis={result.analysis} />
                ) : (
                  <div className="muted">Waiting for valid JSON…</div>
                )}
                <HashDiagnosis
                  ast={result.ok ? result.analysis.ast : null}
                  hash={hash}
                  onHash={setHash}
                />
              </div>
            </section>
          </div>
          {result.ok && <Sections analysis={result.analysis} />}
        </div>
        <aside className="panel pg-side">
          <FixturePanel
            results={fixtures}
            active={active}
            onLoad={(f) => {
              edit(f.inputText);
              setActive(f.name);
              setHash('');
            }}
          />
        </aside>
      </div>
    </div>
  );
}

/**
 * Diagnostics and the per-language grid. Memoised on the analysis: a keystroke re-renders the
 * textarea, not eight renderings of a 50 KB text.
 */
const Sections = memo(function Sections({ analysis }: { analysis: Analysis }) {
  return (
    <>
      <section className="panel pg-section">
        <header className="panel-head">
          <h2>Diagnostics</h2>
        </header>
        <DiagnosticList diagnostics={analysis.diagnostics} />
      </section>
      <section className="panel pg-section">
        <header className="panel-head">
          <h2>Per language</h2>
        </header>
        <div className="panel-body">
          <LanguageGrid analysis={analysis} />
        </div>
      </section>
    </>
  );
});

const Output = memo(function Output({ analysis }: { analysis: Analysis }) {
  return (
    <div className="pg-out">
      <div className="pg-hash-row">
        <div>
          <div className="pg-label">args_hash</div>
          <code className="pg-hash" data-testid="pg-hash">
            {analysis.argsHash}
          </code>
        </div>
        <CopyButton text={analysis.argsHash} />
      </div>
      {analysis.canonical === null ? (
        <div className="pg-fail" data-testid="pg-canonical">
          No canonical form: {analysis.failure}. SDKs send 000000000000.
        </div>
      ) : (
        <div className="pg-canon-wrap">
          <CanonicalText text={analysis.canonical} />
          <CopyButton text={analysis.canonical} className="pg-copy" />
        </div>
      )}
    </div>
  );
});
