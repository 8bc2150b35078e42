/** `/api/agreements`: cross-tool agreement verdicts (PHP SDK 0.1.6+), typed from the handler. */
import { apiQuery, type Filters } from '../app/filters';
import { apiPath } from './api';

export const agreementsPath = (f: Filters, extra: Record<string, string | number> = {}) =>
  apiPath('agreements', apiQuery(f, { limit: 20, ...extra }));
