/** URLs of the core API, each tagged with its operation (api.ts). Pages call useApi with these. */
import { apiQuery, type Filters } from '../app/filters';
import { apiPath } from './api';

export const corePaths = {
  status: apiPath('status'),
  spool: apiPath('spool'),
  projects: apiPath('projects'),
  calls: (f: Filters, extra: { session?: string; limit?: number; order?: 'asc' | 'desc' } = {}) =>
    apiPath('calls', apiQuery(f, extra)),
  startups: (f: Filters, extra: { session?: string; limit?: number } = {}) =>
    apiPath('startups', apiQuery({ project: f.project }, extra)),
  batches: (f: Filters, limit = 200) =>
    apiPath('batches', apiQuery({ project: f.project }, { limit })),
  rejections: (f: Filters, limit = 200, batch?: number) =>
    apiPath('rejections', apiQuery({ project: f.project }, { limit, batch })),
};
