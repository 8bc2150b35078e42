/**
 * Retention caps: at most N calls and at most D days of raw rows. A pass runs on a timer and
 * deletes whole sessions (or whole quiet-gap runs) past either cap; the last one is shown.
 */
import { useState, type FormEvent } from 'react';
import { ApiFailure, describeError } from '../../api/http';
import {
  fieldMessage,
  saveRetention,
  settingsPaths,
  type Retention,
  type RetentionPass,
  type RetentionSettings as Caps,
} from '../../api/settings';
import { useAppData } from '../../app/status';
import { Panel } from '../../components/Panel';
import { ErrorState, Loading } from '../../components/States';
import { getApi } from '../../api/api';
import { useApi } from '../../hooks/useApi';
import { fmtAgo, fmtDateTime, fmtInt, fmtMs, plural } from '../../lib/format';
import { Field } from './Field';
import { parseAmount, typed } from './parse';

type Key = keyof Caps;
const KEYS: Key[] = ['max_calls', 'max_age_days'];

export function RetentionSettings() {
  const { status } = useAppData();
  const res = useApi(settingsPaths.retention);
  const [saved, setSaved] = useState<Retention>();
  const [draft, setDraft] = useState<Partial<Record<Key, string>>>({});
  const [errors, setErrors] = useState<Partial<Record<Key | 'form', string>>>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  // A live refetch may carry a newer pass; the caps just saved win until then.
  const current =
    res.data && saved
      ? { ...res.data, ...saved, last_pass: newer(res.data, saved) }
      : (saved ?? res.data);
  if (!current) {
    return (
      <Panel title="Retention">
        {res.error ? <ErrorState message={res.error} /> : <Loading rows={3} />}
      </Panel>
    );
  }
  const text = (k: Key): string => draft[k] ?? typed(current[k]);

  const onSubmit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setDone(false);
    const update: Partial<Caps> = {};
    const bad: Partial<Record<Key, string>> = {};
    for (const k of KEYS) {
      const n = parseAmount(text(k));
      if (n === null) bad[k] = 'Enter a whole number';
      else if (n !== current[k]) update[k] = n;
    }
    if (Object.keys(bad).length) return setErrors(bad);
    setBusy(true);
    try {
      const since = Date.now();
      const next = await saveRetention(update);
      setSaved(next);
      setDraft({});
      setErrors({});
      setDone(true);
      // A save starts a pass at once; show its outcome when it lands.
      void passAfter(since).then((r) => r && setSaved(r));
    } catch (err) {
      const msg = err instanceof ApiFailure ? err.message : describeError(err);
      const key = KEYS.find((k) => msg.startsWith(`${k}:`));
      setErrors(key ? { [key]: fieldMessage(msg, key) } : { form: msg });
    } finally {
      setBusy(false);
    }
  };
  const edit = (k: Key) => (v: string) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setErrors(({ [k]: _drop, form: _form, ...rest }) => rest);
    setDone(false);
  };
  const unchanged = KEYS.every((k) => parseAmount(text(k)) === current[k]);
  const { bounds, defaults } = current;
  const stored = status?.counts.calls;

  return (
    <Panel title="Retention">
      <form
        className="settings-form"
        onSubmit={(e) => void onSubmit(e)}
        noValidate
        data-testid="retention"
      >
        <p className="settings-lead">
          Raw rows past either cap are deleted in small steps, a whole session (or a whole run of
          calls with no 30 s pause) at a time, so no retry chain is cut. Ingest is never blocked.
        </p>
        <div className="settings-fields">
          <Field
            label="Keep at most"
            suffix="calls"
            value={text('max_calls')}
            onChange={edit('max_calls')}
            error={errors.max_calls}
            testId="retention-calls"
            hint={`${fmtInt(bounds.max_calls.min)} to ${fmtInt(bounds.max_calls.max)} · default ${fmtInt(defaults.max_calls)}`}
          />
          <Field
            label="Delete rows older than"
            suffix="days"
            value={text('max_age_days')}
            onChange={edit('max_age_days')}
            error={errors.max_age_days}
            testId="retention-days"
            hint={`${fmtInt(bounds.max_age_days.min)} to ${fmtInt(bounds.max_age_days.max)} · default ${fmtInt(defaults.max_age_days)}`}
          />
        </div>
        {errors.form && (
          <div className="field-error" role="alert" data-testid="retention-error">
            {errors.form}
          </div>
        )}
        <div className="settings-actions">
          <button type="submit" className="btn primary" disabled={busy || unchanged}>
            {busy ? 'Saving…' : 'Save caps'}
          </button>
          <div className="spacer" />
          {done && (
            <span className="settings-saved" role="status" data-testid="retention-saved">
              Saved · the next pass applies the new caps.
            </span>
          )}
        </div>
        <LastPass pass={current.last_pass} stored={stored} />
        <DeletedSoFar totals={current.totals} running={current.running} />
      </form>
    </Panel>
  );
}

/** Polls the setting briefly until a pass that finished after `since` shows up. */
async function passAfter(since: number): Promise<Retention | undefined> {
  for (let i = 0; i < 12; i++) {
    await new Promise((r) => setTimeout(r, 500));
    try {
      const r = await getApi(settingsPaths.retention);
      if (r.last_pass && r.last_pass.finished_ms >= since) return r;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function newer(a: Retention, b: Retention): RetentionPass | null {
  if (!a.last_pass) return b.last_pass;
  if (!b.last_pass) return a.last_pass;
  return a.last_pass.finished_ms >= b.last_pass.finished_ms ? a.last_pass : b.last_pass;
}

function LastPass({ pass, stored }: { pass: RetentionPass | null; stored?: number }) {
  const now =
    stored === undefined ? null : (
      <span className="stored-now" data-testid="retention-stored">
        {plural(stored, 'call')} stored
      </span>
    );
  if (!pass) {
    return (
      <div className="last-pass" data-testid="retention-last-pass">
        {now}
        <span className="muted">
          No retention pass yet: the first runs 10 s after start, then every minute.
        </span>
      </div>
    );
  }
  const d = pass.deleted;
  const removed = d.calls + d.startups + d.batches + d.rejections;
  return (
    <div className="last-pass" data-testid="retention-last-pass">
      {now}
      <span className={pass.error ? 'badge danger' : 'badge ok'}>
        {pass.error ? 'Last pass failed' : 'Last pass'}
      </span>
      <span title={fmtDateTime(pass.finished_ms)}>{fmtAgo(pass.finished_ms)}</span>
      <span className="muted">
        {pass.error
          ? pass.error
          : removed === 0
            ? `nothing past the caps · ${fmtMs(pass.finished_ms - pass.started_ms)}`
            : `deleted ${plural(d.calls, 'call')}, ${plural(d.startups, 'startup')}, ${plural(d.batches + d.rejections, 'log entry', 'log entries')} · ${fmtMs(pass.finished_ms - pass.started_ms)}`}
      </span>
    </div>
  );
}

/**
 * Everything retention has deleted, as the file counts it: a stored count below what the SDKs
 * sent is explained here, never a mystery.
 */
function DeletedSoFar({ totals, running }: Pick<Retention, 'totals' | 'running'>) {
  const d = totals.deleted;
  const logs = d.batches + d.rejections;
  const parts = [
    plural(d.calls, 'call'),
    ...(d.startups ? [plural(d.startups, 'startup')] : []),
    ...(logs ? [plural(logs, 'log entry', 'log entries')] : []),
    ...(d.content ? [plural(d.content, 'proxied message')] : []),
  ];
  return (
    <div className="retention-totals muted" data-testid="retention-totals">
      {running && <span className="badge">Pass running</span>}
      {totals.since_ms === null || totals.last_ms === null ? (
        <span>Retention has not deleted anything from this file.</span>
      ) : (
        <span>
          Retention has deleted {parts.join(', ')} since{' '}
          <span title={fmtDateTime(totals.since_ms)}>{fmtDateTime(totals.since_ms)}</span> · last{' '}
          <span title={fmtDateTime(totals.last_ms)}>{fmtAgo(totals.last_ms)}</span>
        </span>
      )}
    </div>
  );
}
