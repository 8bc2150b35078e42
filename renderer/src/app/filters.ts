/**
 * The global filters (project, time range, tool, client) live in the URL so every view can be
 * linked and reloaded. Links between pages carry them along; page-specific keys (`id`, `q`,
 * `sort`) do not.
 */
import { hrefOf, useLocation, withParams } from './router';

export const FILTER_KEYS = ['project', 'range', 'from', 'to', 'tool', 'client'] as const;

export const RANGES: { value: string; label: string; ms: number | null }[] = [
  { value: '', label: 'All time', ms: null },
  { value: '15m', label: 'Last 15 min', ms: 15 * 60_000 },
  { value: '1h', label: 'Last hour', ms: 3_600_000 },
  { value: '24h', label: 'Last 24 h', ms: 86_400_000 },
  { value: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { value: '30d', label: 'Last 30 days', ms: 30 * 86_400_000 },
];

export interface Filters {
  project?: string;
  range?: string;
  from?: string;
  to?: string;
  tool?: string;
  client?: string;
}

/**
 * The usable filters of a URL. A value {@link invalidFilters} refuses is left out of every
 * query (the filter bar says so); a `from`/`to` pair in the wrong order drops both.
 */
export function filtersOf(params: URLSearchParams): Filters {
  const bad = new Set<string>(invalidFilters(params).map((i) => i.key));
  if (bad.has('to') && params.get('from') && !Number.isNaN(Date.parse(params.get('to')!)))
    bad.add('from');
  const f: Filters = {};
  for (const k of FILTER_KEYS) {
    const v = params.get(k);
    if (v && !bad.has(k)) f[k] = v;
  }
  return f;
}

/** Relative ranges start on a whole minute (see {@link apiQuery}). */
const RANGE_STEP_MS = 60_000;

/**
 * The API query for a set of filters. A relative range becomes an absolute `from` at call
 * time, so a refetch minutes later moves the window with the clock. That `from` is floored to
 * the minute: the query must read the same from one render to the next (a new query string
 * every render would refetch forever), it moves once a minute, and the first minute bucket of
 * a short range is a whole one.
 */
export function apiQuery(
  f: Filters,
  extra: Record<string, string | number | undefined> = {},
): string {
  const q = new URLSearchParams();
  if (f.project) q.set('project', f.project);
  const preset = RANGES.find((r) => r.value === f.range);
  if (preset?.ms) {
    const now = Math.floor(Date.now() / RANGE_STEP_MS) * RANGE_STEP_MS;
    q.set('from', new Date(now - preset.ms).toISOString());
  } else if (f.from) q.set('from', f.from);
  if (f.to && !preset?.ms) q.set('to', f.to);
  if (f.tool) q.set('tool', f.tool);
  if (f.client) q.set('client', f.client);
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The filters that narrow a view below its project, in URL order, each `key = value`. */
export function describeFilters(f: Filters): string[] {
  const out: string[] = [];
  const preset = RANGES.find((r) => r.value === f.range && r.ms);
  if (preset) out.push(`range = ${preset.label.toLowerCase()}`);
  if (f.from && !preset) out.push(`from = ${f.from}`);
  if (f.to && !preset) out.push(`to = ${f.to}`);
  if (f.tool) out.push(`tool = ${f.tool}`);
  if (f.client) out.push(`client = ${f.client}`);
  return out;
}

/** A filter value in the URL that no page can use, and why: said on screen, never dropped. */
export interface InvalidFilter {
  key: (typeof FILTER_KEYS)[number];
  value: string;
  reason: string;
}

/** The URL's unusable filter values (`range=bogus`, `from=yesterday`, `from` after `to`). */
export function invalidFilters(params: URLSearchParams): InvalidFilter[] {
  const out: InvalidFilter[] = [];
  const range = params.get('range');
  if (range && !RANGES.some((r) => r.value === range))
    out.push({
      key: 'range',
      value: range,
      reason: `not a range; use ${RANGES.filter((r) => r.value)
        .map((r) => r.value)
        .join(', ')}`,
    });
  const times: Partial<Record<'from' | 'to', number>> = {};
  for (const key of ['from', 'to'] as const) {
    const value = params.get(key);
    if (!value) continue;
    const ms = Date.parse(value);
    if (Number.isNaN(ms))
      out.push({ key, value, reason: 'not a date; use an ISO 8601 time like 2026-02-01T09:00Z' });
    else times[key] = ms;
  }
  if (times.from !== undefined && times.to !== undefined && times.from >= times.to)
    out.push({ key: 'to', value: params.get('to')!, reason: 'is not after from' });
  return out;
}

/** Only the filter part of a query, to carry across pages. */
export function filterParams(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const k of FILTER_KEYS) {
    const v = params.get(k);
    if (v) out.set(k, v);
  }
  return out;
}

/** The current filters, plus a link builder that keeps them. */
export function useFilters(): {
  filters: Filters;
  key: string;
  link: (path: string, extra?: Record<string, string | number | null | undefined>) => string;
} {
  const loc = useLocation();
  const filters = filtersOf(loc.params);
  const base = filterParams(loc.params);
  return {
    filters,
    key: base.toString(),
    link: (path, extra = {}) => hrefOf(path, withParams(base, extra)),
  };
}
