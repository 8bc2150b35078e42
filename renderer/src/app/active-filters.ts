/**
 * Every filter narrowing the current view — the global ones (range, tool, client) and the
 * page's own conditions (a Calls page's outcome, latency, search text…) — each with the words
 * a chip and an empty state use. One list, so an empty state names all of them and never
 * blames one filter for what two did together.
 */
import { OUTCOME_LABEL, type OutcomeKey } from '../api/types';
import { RANGES, filtersOf } from './filters';

/** One active filter: the URL key, what a chip says, and `key = value` for sentences. */
export interface ActiveFilter {
  key: string;
  label: string;
  value: string;
  text: string;
}

export const LATENCY_LABELS: Record<string, string> = {
  under_100: '< 100 ms',
  under_500: '100–500 ms',
  under_2000: '0.5–2 s',
  over_2000: '≥ 2 s',
};

/** URL keys the Calls page passes to /api/metrics/calls as they are (and shows as chips). */
export const CALL_CONDITIONS = [
  'q',
  'session',
  'outcome',
  'first_call_success',
  'retried',
  'latency',
  'chain',
  'in_chain',
  'size_bucket',
  'from_tool',
] as const;

/** The page conditions each page reads from the URL beyond the global filters. */
const PAGE_KEYS: Record<string, readonly string[]> = {
  '/calls': CALL_CONDITIONS,
  '/tools': ['q'],
  '/sessions': ['q'],
};

const LABEL: Record<string, string> = {
  q: 'search',
  first_call_success: 'first-call success',
  in_chain: 'in a retry chain',
  size_bucket: 'size bucket',
  from_tool: 'after tool',
};

function valueText(key: string, value: string): string {
  if (key === 'outcome') return OUTCOME_LABEL[value as OutcomeKey] ?? value;
  if (key === 'latency') return LATENCY_LABELS[value] ?? value;
  if (value === 'true') return 'yes';
  if (value === 'false') return 'no';
  return value;
}

/** The active filters of `path` with `params`, global ones first, in a stable order. */
export function activeFilters(path: string, params: URLSearchParams): ActiveFilter[] {
  const f = filtersOf(params);
  const out: ActiveFilter[] = [];
  const push = (key: string, label: string, value: string): void => {
    out.push({ key, label, value, text: `${label} = ${value}` });
  };
  const preset = RANGES.find((r) => r.value === f.range && r.ms);
  if (preset) push('range', 'range', preset.label.toLowerCase());
  if (f.from && !preset) push('from', 'from', f.from);
  if (f.to && !preset) push('to', 'to', f.to);
  if (f.tool) push('tool', 'tool', f.tool);
  if (f.client) push('client', 'client', f.client);
  for (const key of PAGE_KEYS[path] ?? []) {
    const v = params.get(key)?.trim();
    if (v) push(key, LABEL[key] ?? key, valueText(key, v));
  }
  return out;
}

/** The URL changes that clear every active filter (page keys such as `id` or `name` stay). */
export function clearAll(filters: readonly ActiveFilter[]): Record<string, null> {
  const out: Record<string, null> = {};
  for (const f of filters) out[f.key] = null;
  return out;
}
