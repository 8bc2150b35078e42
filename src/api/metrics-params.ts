/** Parameters, echoes and the price setting shared by every metrics route. */
import { DEFAULT_USD_PER_MILLION_TOKENS } from '../shared/metric-constants.js';
import type { MetricsQueries } from '../store/metrics/queries.js';
import type { CallFilter } from '../shared/rows.js';

/** The settings key of the token price. */
export const PRICE_KEY = 'metrics.usd_per_million_tokens';

/** The token price in effect: the setting, or the default when unset or invalid. */
export function price(m: MetricsQueries): number {
  const v = m.getSetting(PRICE_KEY);
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : DEFAULT_USD_PER_MILLION_TOKENS;
}

/** Epoch milliseconds as an ISO string; null when absent. */
export const iso = (ms: number | undefined | null): string | null =>
  ms === undefined || ms === null ? null : new Date(ms).toISOString();

/** The filter as applied, echoed so a view can show and link it. */
export const echo = (f: CallFilter) => ({
  project: f.projectId ?? null,
  // The local row id above differs between databases; the ref does not. The prefix is a label.
  project_ref: f.projectRef ?? null,
  project_label: f.projectLabel ?? null,
  from: iso(f.from),
  to: iso(f.to),
  tool: f.tool ?? null,
  client: f.client ?? null,
  session: f.session ?? null,
});
