/**
 * Calls dated by a wrong clock (src/metrics/clock.ts): the chart card's note on what an
 * automatic range left out, and the flag on a session whose dates cannot be real — one
 * dated ahead of this computer would otherwise read "just now" for years.
 */
import type { ClockOutliers, ClockSuspect } from '../api/types';
import { fmtDateTime } from '../lib/format';
import './clock-flags.css';

/** The note under a time chart; nothing when the range left nothing out. */
export function SeriesClockNote({ outliers }: { outliers: ClockOutliers | undefined }) {
  if (!outliers?.note) return null;
  const groups = [outliers.past, outliers.future, outliers.earlier].filter((g) => g !== null);
  const detail = groups
    .map((g) => `${g.calls} from ${fmtDateTime(g.first_ms)} to ${fmtDateTime(g.last_ms)}`)
    .join('; ');
  return (
    <p className="clock-note" role="note" title={detail} data-testid="series-outliers">
      <span className="clock-note-icon" aria-hidden="true">
        !
      </span>
      {outliers.note}
    </p>
  );
}

const FLAG: Record<ClockSuspect, { label: string; title: string }> = {
  future: {
    label: 'future-dated',
    title: "Its calls are dated after this computer's clock — the SDK's clock is probably ahead.",
  },
  past: {
    label: 'clock not set?',
    title: 'Its calls are dated before MCP existed — the SDK’s clock was probably never set.',
  },
};

/** A session's clock flag; nothing for a plausibly dated session. */
export function ClockFlag({ suspect }: { suspect: ClockSuspect | null | undefined }) {
  if (!suspect) return null;
  const { label, title } = FLAG[suspect];
  return (
    <span className="badge warn clock-flag" title={title} data-testid="clock-flag">
      {label}
    </span>
  );
}
