/**
 * Metrics routes: parse → store query → pure fold (src/metrics) → JSON. Shapes are documented
 * in docs/api.md, "Metrics routes"; definitions in docs/metrics.md. One module per subject
 * (`metrics-*-routes.ts`); this is the one typed map the server, the MCP server and the bench use.
 */
import { metricsCallRoutes } from './metrics-call-routes.js';
import { metricsChainRoutes } from './metrics-chain-routes.js';
import { metricsSessionRoutes } from './metrics-session-routes.js';
import { metricsSettingsRoutes } from './metrics-settings-routes.js';
import { metricsSizeRoutes } from './metrics-size-routes.js';
import { metricsSummaryRoutes } from './metrics-summary-routes.js';
import { metricsTimeseriesRoutes } from './metrics-timeseries-routes.js';
import { metricsToolRoutes } from './metrics-tool-routes.js';
import type { RouteMap } from './types.js';

/** Every metrics route. */
export const metricsRoutes = {
  ...metricsSummaryRoutes,
  ...metricsToolRoutes,
  ...metricsSessionRoutes,
  ...metricsChainRoutes,
  ...metricsTimeseriesRoutes,
  ...metricsSizeRoutes,
  ...metricsCallRoutes,
  ...metricsSettingsRoutes,
} satisfies RouteMap;
