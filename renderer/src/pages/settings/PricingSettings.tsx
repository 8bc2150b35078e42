/** The price per million tokens that turns response and schema sizes into dollars. */
import { useState, type FormEvent } from 'react';
import { ApiFailure, describeError } from '../../api/http';
import { fieldMessage, savePricing, settingsPaths, type Pricing } from '../../api/settings';
import { useFilters } from '../../app/filters';
import { Link } from '../../app/router';
import { Panel } from '../../components/Panel';
import { ErrorState, Loading } from '../../components/States';
import { useApi } from '../../hooks/useApi';
import { Field } from './Field';
import { parseAmount, typed } from './parse';

const FIELD = 'usd_per_million_tokens';
const price = (usd: number): string => `$${typed(usd)}`;

export function PricingSettings() {
  const { link } = useFilters();
  const res = useApi(settingsPaths.pricing, { live: false });
  const [saved, setSaved] = useState<Pricing>();
  const [draft, setDraft] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const current = saved ?? res.data;
  if (!current) {
    return (
      <Panel title="Cost per million tokens">
        {res.error ? <ErrorState message={res.error} /> : <Loading rows={2} />}
      </Panel>
    );
  }
  const text = draft ?? typed(current.usd_per_million_tokens);

  const save = async (value: string): Promise<void> => {
    setDone(false);
    const n = parseAmount(value);
    if (n === null) {
      setError('Enter an amount in US dollars, e.g. 3 or 0.25');
      return;
    }
    setBusy(true);
    try {
      const next = await savePricing(n);
      setSaved(next);
      setDraft(undefined);
      setError(undefined);
      setDone(true);
    } catch (e) {
      setError(e instanceof ApiFailure ? fieldMessage(e.message, FIELD) : describeError(e));
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    void save(text);
  };
  const def = current.default_usd_per_million_tokens;
  const unchanged = parseAmount(text) === current.usd_per_million_tokens;

  return (
    <Panel title="Cost per million tokens">
      <form className="settings-form" onSubmit={onSubmit} noValidate data-testid="pricing">
        <p className="settings-lead">
          Turns sizes into money on the Overview, Sessions and Sizes pages: response and schema
          tokens (UTF-16 units ÷ 4) at your model&apos;s input price.
        </p>
        <Field
          label="Price per million input tokens"
          prefix="$"
          suffix="USD"
          inputMode="decimal"
          value={text}
          onChange={(v) => {
            setDraft(v);
            setError(undefined);
            setDone(false);
          }}
          error={error}
          testId="pricing"
          hint={`0 to 1,000,000 · default ${price(def)}`}
        />
        <div className="settings-actions">
          <button type="submit" className="btn primary" disabled={busy || unchanged}>
            {busy ? 'Saving…' : 'Save price'}
          </button>
          {current.usd_per_million_tokens !== def && (
            <button
              type="button"
              className="btn ghost"
              disabled={busy}
              onClick={() => void save(String(def))}
            >
              Reset to {price(def)}
            </button>
          )}
          <div className="spacer" />
          {done && (
            <span className="settings-saved" role="status" data-testid="pricing-saved">
              Saved · costs now use {price(current.usd_per_million_tokens)} per million.{' '}
              <Link href={link('/sizes')}>See Sizes →</Link>
            </span>
          )}
        </div>
      </form>
    </Panel>
  );
}
