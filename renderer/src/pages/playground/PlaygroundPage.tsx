/**
 * Playground: type or paste tool arguments and see, live, the canonical form, the args_hash,
 * the diagnostics and what every language's encoder would send. Everything runs in this page
 * with the canonical engine itself; nothing typed leaves the machine.
 */
import { useDeferredValue, useMemo, useState } from 'react';
import { analyze, JsonSyntaxError, type Analysis } from '../../../../src/canonical/index';
import { CopyButton } from '../../components/CopyButton';
import { DiagnosticList } from './DiagnosticList';
import { FixturePanel } from './FixturePanel';
import { checkFixtures, loadFixtures } from './fixtures';
import { HashDiagnosis } from './HashDiagnosis';
import { LanguageGrid } from './LanguageGrid';
import './playground.css';

const STORAGE_KEY = 'mcpulse.playground.input';
const EXAMPLE =
  '{\n  "query": "café <b>&",\n  "limit": 10.0,\n  "filters": { "🚀": true, "\\uffff": false }\n}';

type Result =
  { ok: true; analysis: Analysis } | { ok: false; error: string; line?: number; column?: number };

function run(text: string): Result {
  try {
    return { ok: true, analysis: analyze(text) };
  } catch (error) {
    if (error instanceof JsonSyntaxError)
      return { ok: false, error: error.reason, line: error.line, column: error.column };
    return { ok: false, error: 'The engine could not analyse this input.' };
  }
}

export default function PlaygroundPage() {
  const [text, setText] = useState(() => localStorage.getItem(STORAGE_KEY) ?? EXAMPLE);
  const [hash, setHash] = useState('');
  const [active, setActive] = useState<string | null>(null);
  const deferred = useDeferredValue(text);
  const result = useMemo(() => run(deferred), [deferred]);
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
          {result.ok && (
            <>
              <section className="panel pg-section">
                <header className="panel-head">
                  <h2>Diagnostics</h2>
                </header>
                <DiagnosticList diagnostics={result.analysis.diagnostics} />
              </section>
              <section className="panel pg-section">
                <header className="panel-head">
                  <h2>Per language</h2>
                </header>
                <div className="panel-body">
                  <LanguageGrid analysis={result.analysis} />
                </div>
              </section>
            </>
          )}
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

function Output({ analysis }: { analysis: Analysis }) {
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
          <code className="pg-text" data-testid="pg-canonical">
            {analysis.canonical}
          </code>
          <CopyButton text={analysis.canonical} className="pg-copy" />
        </div>
      )}
    </div>
  );
}
