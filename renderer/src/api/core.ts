/** Paths of the core API, typed. Pages call useResource with these. */
import { apiQuery, type Filters } from '../app/filters';

export const corePaths = {
  status: '/api/status',
  projects: '/api/projects',
  calls: (f: Filters, extra: { session?: string; limit?: number; order?: 'asc' | 'desc' } = {}) =>
    `/api/calls${apiQuery(f, extra)}`,
  startups: (f: Filters, extra: { session?: string; limit?: number } = {}) =>
    `/api/startups${apiQuery({ project: f.project }, extra)}`,
  batches: (f: Filters, limit = 200) =>
    `/api/batches${apiQuery({ project: f.project }, { limit })}`,
  rejections: (f: Filters, limit = 200, batch?: number) =>
    `/api/rejections${apiQuery({ project: f.project }, { limit, batch })}`,
};
