/**
 * Clear all data: deletes every call, startup and ingest log entry (settings stay). Two steps
 * on the page itself — open the confirmation, type the phrase — and only then the POST. Every
 * open dashboard empties live: the server sends `cleared` on the stream.
 */
import { useState, type FormEvent } from 'react';
import { describeError } from '../../api/http';
import { clearAllData, CLEAR_PHRASE, type ClearResult } from '../../api/settings';
import { useAppData } from '../../app/status';
import { ExportMenu } from '../../components/ExportMenu';
import { Panel } from '../../components/Panel';
import { plural } from '../../lib/format';

export function ClearData() {
  const { status, hasData } = useAppData();
  const [confirming, setConfirming] = useState(false);
  const [typedPhrase, setTypedPhrase] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<ClearResult>();
  const counts = status?.counts;
  const matches = typedPhrase.trim().toLowerCase() === CLEAR_PHRASE;

  const onSubmit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (!matches) return;
    setBusy(true);
    setError(undefined);
    try {
      setResult(await clearAllData());
      setConfirming(false);
      setTypedPhrase('');
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  const cancel = (): void => {
    setConfirming(false);
    setTypedPhrase('');
    setError(undefined);
  };

  return (
    <Panel title="Clear all data" className="danger-zone">
      <div className="settings-form clear-body" data-testid="clear-data">
        <p className="settings-lead">
          Deletes every call, startup and ingest log entry of every project
          {counts
            ? ` — now ${plural(counts.calls, 'call')}, ${plural(counts.startups, 'startup')} and ${plural(counts.batches, 'batch', 'batches')}`
            : ''}
          . Settings are kept. This cannot be undone: export first if you may want it back.
        </p>
        {!confirming ? (
          <div className="settings-actions">
            <button
              type="button"
              className="btn danger"
              disabled={hasData === false}
              onClick={() => {
                setResult(undefined);
                setConfirming(true);
              }}
            >
              Clear all data…
            </button>
            <ExportMenu filters={{}} disabled={hasData === false} testId="settings-export" />
            <div className="spacer" />
            {result && (
              <span className="settings-saved" role="status" data-testid="clear-result">
                Cleared · deleted {plural(result.deleted.calls, 'call')},{' '}
                {plural(result.deleted.startups, 'startup')} and{' '}
                {plural(result.deleted.batches, 'batch', 'batches')}.
              </span>
            )}
            {!result && hasData === false && <span className="muted">Nothing is stored.</span>}
          </div>
        ) : (
          <form
            className="confirm-box"
            onSubmit={(e) => void onSubmit(e)}
            noValidate
            role="group"
            aria-label="Confirm clearing all data"
          >
            <label className="field-label" htmlFor="clear-confirm">
              Type <strong className="mono">{CLEAR_PHRASE}</strong> to confirm
            </label>
            <input
              id="clear-confirm"
              className="input confirm-input"
              value={typedPhrase}
              autoFocus
              autoComplete="off"
              spellCheck={false}
              data-testid="clear-confirm-input"
              onChange={(e) => setTypedPhrase(e.target.value)}
              onKeyDown={(e) => e.key === 'Escape' && cancel()}
            />
            {error && (
              <div className="field-error" role="alert" data-testid="clear-error">
                {error}
              </div>
            )}
            <div className="settings-actions">
              <button type="submit" className="btn danger solid" disabled={!matches || busy}>
                {busy ? 'Deleting…' : 'Delete everything'}
              </button>
              <button type="button" className="btn ghost" onClick={cancel} disabled={busy}>
                Cancel
              </button>
            </div>
          </form>
        )}
      </div>
    </Panel>
  );
}
