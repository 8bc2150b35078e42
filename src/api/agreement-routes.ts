/**
 * `GET /api/agreements`: the cross-tool agreement verdicts SDKs send (PHP 0.1.6+), grouped by
 * the field and the pair of tools compared, plus the latest verdicts themselves.
 */
import { echo } from './metrics-params.js';
import { intParam, limitOf } from './params.js';
import type { RouteMap } from './types.js';

export const agreementRoutes = {
  'GET /api/agreements': ({ store, filter, query }) => {
    const pairs = store.read.agreements.pairs(filter);
    const checks = pairs.reduce((n, p) => n + p.checks, 0);
    const diverged = pairs.reduce((n, p) => n + p.diverged, 0);
    return {
      checks,
      agreed: checks - diverged,
      diverged,
      pairs,
      agreements: store.read.agreements.list(filter, {
        limit: limitOf(query, 100, 1000),
        before: intParam(query, 'before'),
      }),
      filter: echo(filter),
    };
  },
} satisfies RouteMap;
