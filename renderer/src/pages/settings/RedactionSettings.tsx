/**
 * Redaction (issue 40): the rules that keep credentials off the disk — the built-in ones,
 * read-only, and the user's key names and patterns, editable — and a preview that redacts
 * pasted text on the server (so the browser never bundles secretlint), with unsaved rules too.
 */
import { useState, type FormEvent } from 'react';
import { ApiFailure, describeError } from '../../api/http';
import {
  previewRedaction,
  saveRedaction,
  settingsPaths,
  type RedactionPreview,
  type RedactionRules,
} from '../../api/settings';
import { Panel } from '../../components/Panel';
import { ErrorState, Loading } from '../../components/States';
import { RedactedText, RedactionSummary } from '../../components/content/Redacted';
import { useApi } from '../../hooks/useApi';
import './redaction.css';

/** One rule a line; blank lines dropped. */
const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

const SAMPLE =
  '{"url": "https://deploy:hunter2hunter2@git.example.com/repo.git", "password": "hunter2", "note": "Authorization: Bearer abc123def456ghi789"}';

export function RedactionSettings() {
  const res = useApi(settingsPaths.redaction, { live: false });
  const [saved, setSaved] = useState<RedactionRules>();
  const [keys, setKeys] = useState<string>();
  const [patterns, setPatterns] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const current = saved ?? res.data;
  if (!current) {
    return (
      <Panel title="Redaction" className="redaction-panel">
        {res.error ? <ErrorState message={res.error} /> : <Loading rows={3} />}
      </Panel>
    );
  }
  const keysText = keys ?? current.user.keys.join('\n');
  const patternsText = patterns ?? current.user.patterns.join('\n');
  const draft = { keys: lines(keysText), patterns: lines(patternsText) };
  const unchanged =
    JSON.stringify(draft) ===
    JSON.stringify({ keys: current.user.keys, patterns: current.user.patterns });

  const edited = (set: (v: string) => void) => (v: string) => {
    set(v);
    setError(undefined);
    setDone(false);
  };
  const onSubmit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    try {
      setSaved(await saveRedaction(draft));
      setKeys(undefined);
      setPatterns(undefined);
      setError(undefined);
      setDone(true);
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : describeError(err));
    } finally {
      setBusy(false);
    }
  };
  const b = current.builtin;

  return (
    <Panel title="Redaction" className="redaction-panel">
      <div className="redaction-body" data-testid="redaction">
        <p className="settings-lead">
          Credentials never reach the disk: every captured message — arguments, answers, error
          texts, a session&apos;s initialize info — is redacted on this machine before it is stored
          (and by the proxy before it is sent). Each value found is replaced by a marker naming what
          it was, e.g. <code>[redacted: github-token]</code>.
        </p>
        <div className="redaction-columns">
          <section className="redaction-builtin" aria-labelledby="redaction-builtin-h">
            <h3 id="redaction-builtin-h">
              Built-in rules <span className="muted small">(read-only)</span>
            </h3>
            <p className="small muted">
              String values under these key names, at any depth (
              <code>{b.protocol_keys.join(', ')}</code> excepted):
            </p>
            <ul className="redaction-chips" aria-label="Secret key names">
              {b.keys.map((k) => (
                <li key={k}>
                  <code>{k}</code>
                </li>
              ))}
            </ul>
            <p className="small muted">Secret formats anywhere in a value:</p>
            <ul className="redaction-rules" aria-label="Secret formats">
              {b.supplementary.map((r) => (
                <li key={r.kind}>
                  <code>{r.kind}</code> <span className="muted">{r.about}</span>
                </li>
              ))}
              <li>
                <span className="muted">secretlint&apos;s recommended preset:</span>{' '}
                {b.preset
                  .map((r) => r.kind)
                  .filter((k, i, all) => all.indexOf(k) === i)
                  .join(', ')}
              </li>
            </ul>
          </section>
          <form
            className="settings-form redaction-user"
            onSubmit={(e) => void onSubmit(e)}
            noValidate
          >
            <h3>Your rules</h3>
            <label className="field">
              <span className="field-label">Key names, one a line</span>
              <textarea
                className="redaction-input"
                rows={3}
                value={keysText}
                spellCheck={false}
                placeholder="session_pin"
                onChange={(e) => edited(setKeys)(e.target.value)}
                data-testid="redaction-keys"
              />
            </label>
            <label className="field">
              <span className="field-label">Patterns, one a line</span>
              <textarea
                className="redaction-input"
                rows={3}
                value={patternsText}
                spellCheck={false}
                placeholder={'/ord-(?<secret>\\d{6})/i'}
                onChange={(e) => edited(setPatterns)(e.target.value)}
                data-testid="redaction-patterns"
              />
              <span className="field-hint">
                JavaScript regular expressions, <code>/source/flags</code> (i, m, s, u); a group
                named <code>secret</code> redacts only that part.
              </span>
            </label>
            {error && (
              <p className="field-error" role="alert" data-testid="redaction-error">
                {error}
              </p>
            )}
            <div className="settings-actions">
              <button type="submit" className="btn primary" disabled={busy || unchanged}>
                {busy ? 'Saving…' : 'Save rules'}
              </button>
              <div className="spacer" />
              {done && (
                <span className="settings-saved" role="status">
                  Saved · applied to everything stored from now on.
                </span>
              )}
            </div>
          </form>
        </div>
        <RedactionPreviewBox rules={draft} />
      </div>
    </Panel>
  );
}

/** Paste text, see it redacted — with the rules as edited, saved or not. */
function RedactionPreviewBox({ rules }: { rules: { keys: string[]; patterns: string[] } }) {
  const [text, setText] = useState('');
  const [result, setResult] = useState<RedactionPreview>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    try {
      setResult(await previewRedaction(text, rules));
      setError(undefined);
    } catch (err) {
      setResult(undefined);
      setError(err instanceof ApiFailure ? err.message : describeError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="redaction-preview" onSubmit={(e) => void run(e)} noValidate>
      <h3>Preview</h3>
      <label className="field">
        <span className="field-label">Paste a message, an answer or any text</span>
        <textarea
          className="redaction-input"
          rows={4}
          value={text}
          spellCheck={false}
          placeholder={SAMPLE}
          onChange={(e) => setText(e.target.value)}
          data-testid="redaction-preview-input"
        />
      </label>
      <div className="settings-actions">
        <button type="submit" className="btn" disabled={busy || text === ''}>
          {busy ? 'Redacting…' : 'Preview redaction'}
        </button>
        <button type="button" className="btn ghost" onClick={() => setText(SAMPLE)}>
          Use an example
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {result && (
        <div className="redaction-result" data-testid="redaction-preview-result">
          {result.count === 0 ? (
            <p className="small muted">Nothing in this text would be redacted.</p>
          ) : (
            <RedactionSummary texts={[result.text]} testId="redaction-preview-summary" />
          )}
          <pre className="redaction-output" tabIndex={0} aria-label="Redacted text">
            <RedactedText text={result.text} />
          </pre>
        </div>
      )}
    </form>
  );
}
