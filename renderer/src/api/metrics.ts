/** URLs of the metrics API, each tagged with its operation (api.ts). Pages call useApi with these. */
import { apiQuery, type Filters } from '../app/filters';
import { apiPath } from './api';

type Extra = Record<string, string | number | undefined>;

/** Minutes east of UTC, so hourly and daily buckets start at local midnight. */
const tz = (): number => -new Date().getTimezoneOffset();

export const metricsPaths = {
  summary: (f: Filters, extra: Extra = {}) => apiPath('summary', apiQuery(f, extra)),
  timeseries: (f: Filters, extra: Extra = {}) =>
    apiPath('timeseries', apiQuery(f, { tz: tz(), ...extra })),
  sessions: (f: Filters, extra: Extra = {}) => apiPath('sessions', apiQuery(f, extra)),
  session: (f: Filters, id: string) => apiPath('session', apiQuery({ project: f.project }), { id }),
  compare: (f: Filters, a: string, b: string) =>
    apiPath('compare', apiQuery({ project: f.project }, { a, b })),
  chains: (f: Filters, extra: Extra = {}) => apiPath('chains', apiQuery(f, extra)),
  tools: (f: Filters) => apiPath('tools', apiQuery(f)),
  tool: (f: Filters, name: string) =>
    apiPath('tool', apiQuery({ ...f, tool: undefined }), { name }),
  sizes: (f: Filters) => apiPath('sizes', apiQuery(f)),
  insights: (f: Filters) => apiPath('insights', apiQuery(f)),
  clients: (f: Filters) => apiPath('clients', apiQuery(f)),
  pairs: (f: Filters) => apiPath('pairs', apiQuery(f)),
  /** The calls behind a number: filters plus metric conditions (outcome, first_call_success, …). */
  calls: (f: Filters, extra: Extra = {}) => apiPath('metricsCalls', apiQuery(f, extra)),
  pricing: apiPath('pricing'),
};
