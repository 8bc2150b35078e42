/** The five outcomes as one stacked bar with a legend; each count links to its calls. */
import { OUTCOME_KEYS, OUTCOME_LABEL, type OutcomeKey } from '../api/types';
import { Link } from '../app/router';
import { fmtInt, fmtPct } from '../lib/format';
import './outcome-bar.css';

export function OutcomeBar({
  outcomes,
  linkFor,
  compact = false,
}: {
  outcomes: Record<OutcomeKey, number>;
  linkFor?: (o: OutcomeKey) => string;
  compact?: boolean;
}) {
  const total = OUTCOME_KEYS.reduce((s, k) => s + (outcomes[k] ?? 0), 0);
  return (
    <div className={`obar ${compact ? 'compact' : ''}`}>
      <div
        className="obar-track"
        role="img"
        aria-label={OUTCOME_KEYS.map((k) => `${OUTCOME_LABEL[k]} ${outcomes[k] ?? 0}`).join(', ')}
      >
        {total > 0 &&
          OUTCOME_KEYS.map((k) =>
            outcomes[k] ? (
              <span key={k} className={`obar-seg o-${k}`} style={{ flexGrow: outcomes[k] }} />
            ) : null,
          )}
      </div>
      {!compact && (
        <ul className="obar-legend">
          {OUTCOME_KEYS.map((k) => {
            const n = outcomes[k] ?? 0;
            const label = (
              <>
                <span className={`dot o-${k}`} />
                <span className="obar-name">{OUTCOME_LABEL[k]}</span>
                <span className="obar-n">{fmtInt(n)}</span>
                <span className="obar-pct">{total ? fmtPct(n / total, 0) : '—'}</span>
              </>
            );
            return (
              <li key={k} data-outcome={k}>
                {linkFor && n > 0 ? <Link href={linkFor(k)}>{label}</Link> : label}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** The outcome colours named once, for tables of compact bars (which carry no legend). */
export function OutcomeLegend() {
  return (
    <ul className="obar-key" aria-label="Outcome colours">
      {OUTCOME_KEYS.map((k) => (
        <li key={k}>
          <span className={`dot o-${k}`} aria-hidden="true" />
          {OUTCOME_LABEL[k]}
        </li>
      ))}
    </ul>
  );
}
