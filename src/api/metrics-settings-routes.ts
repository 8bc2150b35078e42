/** Metrics settings routes: the token price. */
import { DEFAULT_USD_PER_MILLION_TOKENS } from '../shared/metric-constants.js';
import { metricsOf } from '../store/metrics/queries.js';
import { price, PRICE_KEY } from './metrics-params.js';
import { ApiError, writable, type ApiContext, type RouteMap } from './types.js';

/** `GET|PUT /api/settings/pricing`. */
export const metricsSettingsRoutes = {
  'GET /api/settings/pricing': ({ store }) => ({
    usd_per_million_tokens: price(metricsOf(store)),
    default_usd_per_million_tokens: DEFAULT_USD_PER_MILLION_TOKENS,
  }),

  'PUT /api/settings/pricing': ({ store, body }: ApiContext) => {
    const v = (body as { usd_per_million_tokens?: unknown } | undefined)?.usd_per_million_tokens;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1_000_000) {
      throw new ApiError(400, 'usd_per_million_tokens: expected a number from 0 to 1,000,000');
    }
    const m = metricsOf(writable(store, 'the price'));
    m.setSetting(PRICE_KEY, v);
    return {
      usd_per_million_tokens: price(m),
      default_usd_per_million_tokens: DEFAULT_USD_PER_MILLION_TOKENS,
    };
  },
} satisfies RouteMap;
