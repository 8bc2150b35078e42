/** Paths of the metrics API, typed by metrics-types.ts. */
import { apiQuery, type Filters } from '../app/filters';

type Extra = Record<string, string | number | undefined>;

/** Minutes east of UTC, so hourly and daily buckets start at local midnight. */
const tz = (): number => -new Date().getTimezoneOffset();

export const metricsPaths = {
  summary: (f: Filters, extra: Extra = {}) => `/api/summary${apiQuery(f, extra)}`,
  timeseries: (f: Filters, extra: Extra = {}) =>
    `/api/timeseries${apiQuery(f, { tz: tz(), ...extra })}`,
  sessions: (f: Filters, extra: Extra = {}) => `/api/sessions${apiQuery(f, extra)}`,
  session: (f: Filters, id: string) =>
    `/api/sessions/${encodeURIComponent(id)}${apiQuery({ project: f.project })}`,
  compare: (f: Filters, a: string, b: string) =>
    `/api/compare${apiQuery({ project: f.project }, { a, b })}`,
  chains: (f: Filters, extra: Extra = {}) => `/api/chains${apiQuery(f, extra)}`,
  tools: (f: Filters) => `/api/tools${apiQuery(f)}`,
  tool: (f: Filters, name: string) =>
    `/api/tools/${encodeURIComponent(name)}${apiQuery({ ...f, tool: undefined })}`,
  sizes: (f: Filters) => `/api/sizes${apiQuery(f)}`,
  insights: (f: Filters) => `/api/insights${apiQuery(f)}`,
  clients: (f: Filters) => `/api/clients${apiQuery(f)}`,
  pairs: (f: Filters) => `/api/pairs${apiQuery(f)}`,
  /** The calls behind a number: filters plus metric conditions (outcome, first_call_success, …). */
  calls: (f: Filters, extra: Extra = {}) => `/api/metrics/calls${apiQuery(f, extra)}`,
  pricing: '/api/settings/pricing',
};
