/**
 * The application's operations as one typed map, name → handler (the model is Actual Budget's
 * `types/handlers.ts`): {@link Api} is derived from the handlers' own return types, so the HTTP
 * adapter, the in-process callers (`callApi`) and the renderer (`useApi`) all see the shape the
 * code actually returns — nothing is restated by hand.
 */
import { API_ROUTES, type ApiName } from '../shared/api-routes.js';
import { adminRoutes } from './admin-routes.js';
import { agreementRoutes } from './agreement-routes.js';
import { connectionRoutes } from './connection-routes.js';
import { contentRoutes } from './content-routes.js';
import { coreRoutes } from './core-routes.js';
import { exportRoutes } from './export-routes.js';
import { metricsRoutes } from './metrics-routes.js';
import { redactionRoutes } from './redaction-routes.js';
import { toolErrorRoutes } from './tool-error-routes.js';
import type { Freshness } from './types.js';

const routes = {
  ...coreRoutes,
  ...agreementRoutes,
  ...contentRoutes,
  ...toolErrorRoutes,
  ...metricsRoutes,
  ...adminRoutes,
  ...redactionRoutes,
  ...exportRoutes,
  ...connectionRoutes,
};
type Routes = typeof routes;

/** Each operation's handler, by name. */
export type Handlers = { [K in ApiName]: Routes[(typeof API_ROUTES)[K]] };

/** What each operation answers (the JSON body, or a download for `export`). */
export type Api = { [K in ApiName]: Awaited<ReturnType<Handlers[K]>> };

/** Every route has a name: a route added without one fails to compile here. */
type Unnamed = Exclude<keyof Routes, (typeof API_ROUTES)[ApiName]>;
const everyRouteNamed: [Unnamed] extends [never] ? true : Unnamed = true;
void everyRouteNamed;

/** The handlers by name. */
export const handlers = Object.fromEntries(
  (Object.keys(API_ROUTES) as ApiName[]).map((name) => [name, routes[API_ROUTES[name]]]),
) as Handlers;

/**
 * What each operation must see before it runs (see {@link Freshness}): metrics, exports and
 * the price setting read derived facts; raw rows and admin answer even while applying fails;
 * the spool's backlog is read as it stands.
 */
export const FRESHNESS: Record<ApiName, Freshness> = {
  status: 'applied',
  spool: 'none',
  projects: 'applied',
  calls: 'applied',
  call: 'applied',
  messages: 'applied',
  startups: 'applied',
  batches: 'applied',
  rejections: 'applied',
  agreements: 'applied',
  summary: 'derived',
  insights: 'derived',
  clients: 'derived',
  tools: 'derived',
  tool: 'derived',
  toolErrors: 'applied',
  pairs: 'derived',
  sessions: 'derived',
  session: 'derived',
  compare: 'derived',
  chains: 'derived',
  timeseries: 'derived',
  sizes: 'derived',
  metricsCalls: 'derived',
  pricing: 'derived',
  setPricing: 'derived',
  retention: 'applied',
  setRetention: 'applied',
  clear: 'applied',
  redaction: 'applied',
  setRedaction: 'applied',
  redactionPreview: 'none',
  export: 'derived',
  connection: 'applied',
  sessionEnding: 'applied',
};
