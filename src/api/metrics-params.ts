/** Parameters, echoes and the price setting shared by every metrics route. */
import { DEFAULT_USD_PER_MILLION_TOKENS } from '../shared/metric-constants.js';
import type { MetricsQueries } from '../store/metrics/queries.js';
import type { CallFilter } from '../shared/rows.js';
import { intParam } from './params.js';
import { ApiError } from './types.js';

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

/** A query value from a fixed list; `fallback` when absent, 400 when not in the list. */
export function oneOf<T extends string>(
  q: URLSearchParams,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const v = q.get(name);
  if (v === null || v === '') return fallback;
  if (!(allowed as readonly string[]).includes(v)) {
    throw new ApiError(400, `${name}: expected one of ${allowed.join(', ')}, received '${v}'`);
  }
  return v as T;
}

/** A `true`/`false` (or `1`/`0`) query value; undefined when absent, 400 otherwise. */
export function bool(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new ApiError(400, `${name}: expected true or false, received '${v}'`);
}

/** The `limit` query value, at least 1 and capped at `max`. */
export function limitOf(q: URLSearchParams, fallback: number, max: number): number {
  const n = intParam(q, 'limit') ?? fallback;
  if (n < 1) throw new ApiError(400, 'limit: expected at least 1');
  return Math.min(n, max);
}
