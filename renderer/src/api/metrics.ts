/** Paths of the metrics API, typed by metrics-types.ts. */
import { apiQuery, type Filters } from '../app/filters';

type Extra = Record<string, string | number | undefined>;

export const metricsPaths = {
  summary: (f: Filters, extra: Extra = {}) => `/api/summary${apiQuery(f, extra)}`,
  timeseries: (f: Filters, extra: Extra = {}) => `/api/timeseries${apiQuery(f, extra)}`,
  sessions: (f: Filters, extra: Extra = {}) => `/api/sessions${apiQuery(f, extra)}`,
  session: (f: Filters, id: string) =>
    `/api/sessions/${encodeURIComponent(id)}${apiQuery({ project: f.project })}`,
  chains: (f: Filters, extra: Extra = {}) => `/api/chains${apiQuery(f, extra)}`,
  tools: (f: Filters) => `/api/tools${apiQuery(f)}`,
  tool: (f: Filters, name: string) =>
    `/api/tools/${encodeURIComponent(name)}${apiQuery({ ...f, tool: undefined })}`,
  sizes: (f: Filters) => `/api/sizes${apiQuery(f)}`,
  insights: (f: Filters) => `/api/insights${apiQuery(f)}`,
  clients: (f: Filters) => `/api/clients${apiQuery(f)}`,
  pairs: (f: Filters) => `/api/pairs${apiQuery(f)}`,
};
